/**
 * Every error a client can see. The HTTP status and code belong to the class (chosen by `instanceof` in the error
 * envelope), and each carries its message in English and Chinese. Anything that is not a ServiceError becomes a
 * generic 500 `internal_error`.
 */
export interface Messages {
  en: string;
  zh: string;
}

export abstract class ServiceError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly headers: Record<string, string> = {};

  constructor(
    readonly messages: Messages,
    readonly details?: Record<string, unknown>,
  ) {
    super(messages.en);
    this.name = new.target.name;
  }
}

/** The longest piece of client input an error repeats back; a response must stay far below Lambda's 6 MB. */
export const MAX_ECHO_CHARS = 200;

export function clipped(text: string, max = MAX_ECHO_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * A client's value as an error may show it: JSON, cut to MAX_ECHO_CHARS. Never throws, whatever the value is (a
 * structure nested 10,000 deep overflows JSON.stringify's stack; that must not turn a 400 into a 500).
 */
export function echoOf(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}';
  }
  return clipped(text ?? String(value));
}

/** The value itself when it is a short scalar, its clipped JSON text otherwise: what `details` may carry. */
function echoDetail(value: unknown): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return clipped(value);
  return echoOf(value);
}

export class InvalidJsonError extends ServiceError {
  readonly status = 400;
  readonly code = 'invalid_json';
  constructor(reason: string) {
    super({
      en: `The request body is not valid JSON (${reason}). Send one JSON object, UTF-8 encoded.`,
      zh: `请求体不是有效的 JSON（${reason}）。请发送一个 UTF-8 编码的 JSON 对象。`,
    });
  }
}

export interface FieldIssue {
  field: string;
  message: string;
}

export class InvalidRequestError extends ServiceError {
  readonly status = 400;
  readonly code = 'invalid_request';
  constructor(issues: FieldIssue[]) {
    const summary = issues
      .slice(0, 3)
      .map((i) => `${i.field || '(body)'}: ${i.message}`)
      .join('; ');
    const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
    super(
      {
        en: `The request is invalid. ${summary}${more}. See details.issues for every field.`,
        zh: `请求参数有误：${summary}${more}。每个字段的问题见 details.issues。`,
      },
      { issues },
    );
  }
}

export class CountryNotSupportedError extends ServiceError {
  readonly status = 400;
  readonly code = 'country_not_supported';
  constructor(country: unknown) {
    super(
      {
        en: `country must be "US" or "CN"; got ${echoOf(country)}.`,
        zh: `country 只能是 "US" 或 "CN"，收到的是 ${echoOf(country)}。`,
      },
      { country: echoDetail(country), supported: ['US', 'CN'] },
    );
  }
}

export class ParameterConflictError extends ServiceError {
  readonly status = 400;
  readonly code = 'parameter_conflict';
  constructor(field: string, bodyValue: unknown, queryValue: string) {
    super(
      {
        en: `"${field}" is given in both the body and the query string with different values; send it once.`,
        zh: `"${field}" 同时出现在请求体和查询参数中且取值不同，请只传一次。`,
      },
      { field, body: echoDetail(bodyValue), query: clipped(queryValue) },
    );
  }
}

export class PayloadTooLargeError extends ServiceError {
  readonly status = 413;
  readonly code = 'payload_too_large';
  /** `atLeast`: reading stopped at the limit, so the body's true size is only known to be this or more. */
  constructor(limitBytes: number, actualBytes: number, atLeast = false) {
    super(
      {
        en: `The request body is ${atLeast ? 'at least ' : ''}${actualBytes} bytes; the limit is ${limitBytes} bytes.`,
        zh: `请求体${atLeast ? '至少' : '为'} ${actualBytes} 字节，超过上限 ${limitBytes} 字节。`,
      },
      { limit_bytes: limitBytes, actual_bytes: actualBytes, ...(atLeast ? { actual_bytes_at_least: true } : {}) },
    );
  }
}

export class TooManyItemsError extends ServiceError {
  readonly status = 413;
  readonly code = 'too_many_items';
  /** `unit` names what is counted (titles are items; an allowlist counts brands). */
  constructor(limit: number, actual: number, unit: { en: string; zh: string } = { en: 'items', zh: '条' }) {
    super(
      {
        en: `A request may carry at most ${limit} ${unit.en}; this one has ${actual}. Split it into several requests.`,
        zh: `每个请求最多 ${limit} ${unit.zh}，本次为 ${actual} ${unit.zh}，请拆分成多个请求。`,
      },
      { limit, actual },
    );
  }
}

/** A batch whose screening would take more work than one call may ask (shared/screening/screening-work.ts). */
export class BatchTooComplexError extends ServiceError {
  readonly status = 413;
  readonly code = 'batch_too_complex';
  constructor(limitUnits: number, actualUnits: number, itemsThatFit: number) {
    super(
      {
        en: `This batch needs ${actualUnits} work units to screen; one request may take ${limitUnits} (a Chinese, Japanese or Korean character counts 3, any other word 1). Send at most the first ${itemsThatFit} items in this request and the rest in others. No points were charged.`,
        zh: `本批次筛查需要 ${actualUnits} 个工作单位，单个请求上限为 ${limitUnits}（每个中日韩字符计 3，其他每个单词计 1）。请本次最多发送前 ${itemsThatFit} 条，其余分批发送。未扣除点数。`,
      },
      { limit_units: limitUnits, actual_units: actualUnits, items_that_fit: itemsThatFit },
    );
  }
}

/** Work stopped because its answer is no longer wanted (the function's time is running out). */
export class WorkAbortedError extends Error {
  constructor(what: string) {
    super(`${what} was stopped: its answer is no longer wanted`);
    this.name = 'WorkAbortedError';
  }
}

export class UnsupportedMediaTypeError extends ServiceError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
  constructor(contentType: string | undefined) {
    super(
      {
        en: `Send the body as JSON with "Content-Type: application/json"; got ${contentType ? `"${clipped(contentType)}"` : 'no Content-Type'}.`,
        zh: `请以 "Content-Type: application/json" 发送 JSON 请求体；当前为 ${contentType ? `"${clipped(contentType)}"` : '未设置 Content-Type'}。`,
      },
      { content_type: contentType === undefined ? null : clipped(contentType) },
    );
  }
}

/** What the HTTP front door refuses before any function runs: a request line or headers that cannot be read. */
export class MalformedRequestError extends ServiceError {
  readonly status = 400;
  readonly code = 'malformed_request';
  constructor(reason: string) {
    super(
      {
        en: `The HTTP request could not be read (${clipped(reason)}). Send POST /v1/<operation> with ordinary headers.`,
        zh: `无法解析该 HTTP 请求（${clipped(reason)}）。请以常规请求头发送 POST /v1/<接口>。`,
      },
      { reason: clipped(reason) },
    );
  }
}

export class HeadersTooLargeError extends ServiceError {
  readonly status = 431;
  readonly code = 'headers_too_large';
  constructor(limitBytes: number) {
    super(
      {
        en: `The request line and headers exceed ${limitBytes} bytes. Send shorter headers and a shorter path.`,
        zh: `请求行与请求头超过 ${limitBytes} 字节，请缩短请求头和路径。`,
      },
      { limit_bytes: limitBytes },
    );
  }
}

export class MissingApiKeyError extends ServiceError {
  readonly status = 401;
  readonly code = 'missing_api_key';
  constructor() {
    super({
      en: 'No API key: send the header "Authorization: Bearer <your API key>".',
      zh: '缺少 API 密钥：请发送请求头 "Authorization: Bearer <API 密钥>"。',
    });
    this.headers['WWW-Authenticate'] = 'Bearer';
  }
}

export class InvalidApiKeyError extends ServiceError {
  readonly status = 401;
  readonly code = 'invalid_api_key';
  constructor(reason: 'malformed_header' | 'unknown_or_revoked') {
    super(
      reason === 'malformed_header'
        ? {
            en: 'The Authorization header must be "Bearer <key>" with a key of the form tmk_<env>_<32 letters and digits>.',
            zh: 'Authorization 请求头格式应为 "Bearer <key>"，密钥形如 tmk_<env>_<32 位字母数字>。',
          }
        : {
            en: 'This API key is not valid: it is unknown or has been revoked. Check the key or ask for a new one.',
            zh: '该 API 密钥无效：不存在或已被吊销。请检查密钥或申请新的密钥。',
          },
    );
    this.headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
  }
}

export class InsufficientPointsError extends ServiceError {
  readonly status = 402;
  readonly code = 'insufficient_points';
  constructor(balance: number, cost: number) {
    super(
      {
        en: `This request costs ${cost} points and the balance is ${balance}. Top up, or send fewer items.`,
        zh: `本次请求需要 ${cost} 点，当前余额 ${balance} 点。请充值或减少条目数。`,
      },
      { balance, cost },
    );
  }
}

export class TierNotAllowedError extends ServiceError {
  readonly status = 403;
  readonly code = 'tier_not_allowed';
  constructor(tier: string, required: string) {
    super(
      {
        en: `This operation needs the ${required} tier or above; the account is on ${tier}.`,
        zh: `该接口需要 ${required} 及以上套餐，当前账户为 ${tier}。`,
      },
      { tier, required_tier: required },
    );
  }
}

/** An account an operator suspended: its keys are known but refused until it is resumed. */
export class AccountSuspendedError extends ServiceError {
  readonly status = 403;
  readonly code = 'account_suspended';
  constructor() {
    super({
      en: 'This account is suspended: its API keys are refused until it is resumed. Contact support to resolve it.',
      zh: '该账户已被暂停：在恢复之前其 API 密钥均不可用。请联系客服处理。',
    });
  }
}

export class NotFoundError extends ServiceError {
  readonly status = 404;
  readonly code = 'not_found';
  constructor(requestedPath: string) {
    const path = clipped(requestedPath);
    super(
      {
        en: `No operation at ${path}. The operations are POST /v1/batch-screen and POST /v1/image-search; every route is listed at /docs.`,
        zh: `路径 ${path} 不存在。可用接口为 POST /v1/batch-screen 与 POST /v1/image-search；全部路径见 /docs。`,
      },
      { path },
    );
  }
}

export class MethodNotAllowedError extends ServiceError {
  readonly status = 405;
  readonly code = 'method_not_allowed';
  constructor(requestedMethod: string, allowed: string[]) {
    const method = clipped(requestedMethod);
    super(
      {
        en: `${method} is not allowed here; use ${allowed.join(', ')}.`,
        zh: `此路径不支持 ${method}，请使用 ${allowed.join(', ')}。`,
      },
      { method, allowed },
    );
    this.headers.Allow = allowed.join(', ');
  }
}

export class IdempotencyInProgressError extends ServiceError {
  readonly status = 409;
  readonly code = 'idempotency_key_in_progress';
  constructor() {
    super({
      en: 'A request with this Idempotency-Key is still being processed. Retry after it has finished.',
      zh: '使用该 Idempotency-Key 的请求仍在处理中，请在其完成后重试。',
    });
    this.headers['Retry-After'] = '1';
  }
}

export class IdempotencyKeyReusedError extends ServiceError {
  readonly status = 422;
  readonly code = 'idempotency_key_reused';
  constructor() {
    super({
      en: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
      zh: '该 Idempotency-Key 已用于另一个不同的请求，新请求请使用新的键。',
    });
  }
}

export class RateLimitedError extends ServiceError {
  readonly status = 429;
  readonly code = 'rate_limited';
  constructor(limit: number, windowSeconds: number, retryAfterSeconds: number) {
    super(
      {
        en: `Rate limit reached: ${limit} requests per ${windowSeconds} s for this account. Retry after ${retryAfterSeconds} s.`,
        zh: `已达到频率上限：本账户每 ${windowSeconds} 秒 ${limit} 次请求。请在 ${retryAfterSeconds} 秒后重试。`,
      },
      { limit, window_seconds: windowSeconds, retry_after_seconds: retryAfterSeconds },
    );
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

export class ServiceUnavailableError extends ServiceError {
  readonly status = 503;
  readonly code = 'service_unavailable';
  constructor(what: string) {
    super({
      en: `${what} is unavailable right now; no points were charged. Retry in a few seconds.`,
      zh: `${what}暂时不可用，未扣除点数。请稍后重试。`,
    });
    this.headers['Retry-After'] = '5';
  }
}

/** An account referenced by a valid key no longer exists: to the client this is the same as an invalid key. */
export class AccountNotFoundError extends InvalidApiKeyError {
  constructor() {
    super('unknown_or_revoked');
  }
}

/**
 * A debit whose transaction got no answer: it may have been applied or not. It carries the debit so that the
 * caller can give it back; a refund of a charge that was never made changes nothing (its condition fails).
 */
export class DebitOutcomeUnknownError extends Error {
  constructor(
    readonly debit: { accountId: string; entryId: string; cost: number },
    cause: unknown,
  ) {
    super('the debit got no answer; it may or may not have been applied', { cause });
    this.name = 'DebitOutcomeUnknownError';
  }
}

/**
 * A debit that kept losing its compare-and-set to other movements of the same account for too long. Nothing was
 * charged; the request is answered 503 and may be retried.
 */
export class DebitContendedError extends Error {
  constructor(readonly attempts: number) {
    super(`the balance kept changing under the debit (${attempts} attempts)`);
    this.name = 'DebitContendedError';
  }
}
