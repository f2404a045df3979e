/**
 * The errors of image intake and logo search: where the image comes from (body or url), what it is, whether it can
 * be read within its budget, and a search backend that did not answer. Statuses and codes as in shared/errors.ts.
 */
import { clipped, MAX_ECHO_CHARS, ServiceError } from '../errors';

export class ImageSourceConflictError extends ServiceError {
  readonly status = 400;
  readonly code = 'image_source_conflict';
  constructor() {
    super({
      en: 'Send either image_b64 or url, not both.',
      zh: 'image_b64 与 url 只能二选一，不能同时提供。',
    });
  }
}

export class ImageSourceMissingError extends ServiceError {
  readonly status = 400;
  readonly code = 'image_source_missing';
  constructor() {
    super({
      en: 'Send the image as image_b64 (base64, with or without a data: prefix) or as url (a public http/https address).',
      zh: '请通过 image_b64（base64，可带 data: 前缀）或 url（公开的 http/https 地址）提供图片。',
    });
  }
}

export class ImageUnreadableError extends ServiceError {
  readonly status = 400;
  readonly code = 'image_unreadable';
  constructor(fullReason: string) {
    const reason = clipped(fullReason, 4 * MAX_ECHO_CHARS);
    super(
      {
        en: `The image could not be read: ${reason}. Send a PNG, JPEG, WebP, GIF or SVG of at most 4 MB and 4096 x 4096 pixels.`,
        zh: `无法读取图片：${reason}。请发送不超过 4 MB、4096 x 4096 像素的 PNG、JPEG、WebP、GIF 或 SVG 图片。`,
      },
      { reason },
    );
  }
}

/** An image that would take more work to read than a search may spend (shared/imaging/svg-budget.ts). */
export class ImageTooComplexError extends ServiceError {
  readonly status = 400;
  readonly code = 'image_too_complex';
  constructor(fullReason: string, limit: number) {
    const reason = clipped(fullReason, MAX_ECHO_CHARS);
    super(
      {
        en: `The image is too complex to process: ${reason}. Send the logo as PNG, JPEG or WebP, or as a simpler SVG (few filters, small blur and dilate radii). No points were charged.`,
        zh: `图片过于复杂，无法处理：${reason}。请以 PNG、JPEG 或 WebP 发送徽标，或发送更简单的 SVG（滤镜少、模糊与扩张半径小）。未扣除点数。`,
      },
      { reason, limit },
    );
  }
}

/** A readable image with nothing on it: one colour, or nothing left once the near-uniform border is trimmed. */
export class ImageHasNoContentError extends ServiceError {
  readonly status = 422;
  readonly code = 'image_has_no_content';
  constructor() {
    super({
      en: 'The image has no content to search for: it is a single colour, or nothing is left once its plain border is trimmed. Send a picture that shows the logo. No points were charged.',
      zh: '图片中没有可搜索的内容：它只有一种颜色，或去除纯色边框后什么也不剩。请发送包含标志的图片。未扣除点数。',
    });
  }
}

export class UrlNotAllowedError extends ServiceError {
  readonly status = 400;
  readonly code = 'url_not_allowed';
  constructor(fullReason: string) {
    const reason = clipped(fullReason, 4 * MAX_ECHO_CHARS);
    super(
      {
        en: `This url cannot be fetched: ${reason}. Use a public http or https address on port 80 or 443.`,
        zh: `无法获取该 url：${reason}。请使用端口为 80 或 443 的公开 http/https 地址。`,
      },
      { reason },
    );
  }
}

export class UrlFetchFailedError extends ServiceError {
  readonly status = 422;
  readonly code = 'url_fetch_failed';
  constructor(fullReason: string) {
    const reason = clipped(fullReason, 4 * MAX_ECHO_CHARS);
    super(
      {
        en: `The image at url could not be fetched: ${reason}. No points were charged.`,
        zh: `无法从 url 获取图片：${reason}。未扣除点数。`,
      },
      { reason },
    );
  }
}

/**
 * An embedder or vector index that did not answer in time, was throttled or failed, or a model that cannot be loaded
 * (`unloadable`: missing, unreadable or corrupt): the search falls back.
 */
export class SearchBackendUnavailableError extends Error {
  constructor(
    readonly backend: string,
    readonly reason: 'timeout' | 'throttled' | 'failed' | 'unloadable',
    options?: { cause?: unknown },
  ) {
    super(`${backend}: ${reason}`, options);
    this.name = 'SearchBackendUnavailableError';
  }
}
