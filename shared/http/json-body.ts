/**
 * Reads the body as one UTF-8 JSON object: 415 unless the content type is JSON, 413 over the size limit, 400
 * `invalid_json` for bytes that are not UTF-8 or text that is not JSON. A leading byte-order mark is ignored.
 */
import { InvalidJsonError, InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';
import { header } from './headers';
import type { ApiMiddleware, ApiRequest } from './types';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [mediaType = '', ...params] = contentType.split(';').map((p) => p.trim());
  if (!JSON_MEDIA_TYPE.test(mediaType)) return false;
  const charset = params.find((p) => p.toLowerCase().startsWith('charset='));
  return !charset || /^charset="?utf-8"?$/i.test(charset);
}

export function jsonBody(options: { maxBodyBytes: number }): ApiMiddleware {
  const jsonBodyBefore = (request: ApiRequest): void => {
    const { event } = request;
    const contentType = header(event, 'content-type');
    if (!isJsonContentType(contentType)) throw new UnsupportedMediaTypeError(contentType);

    const raw = event.body ?? '';
    const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : undefined;
    const size = bytes ? bytes.length : Buffer.byteLength(raw, 'utf8');
    if (size > options.maxBodyBytes) throw new PayloadTooLargeError(options.maxBodyBytes, size);

    let text: string;
    try {
      text = bytes ? strictUtf8.decode(bytes) : raw;
    } catch {
      throw new InvalidJsonError('the bytes are not valid UTF-8');
    }
    // RFC 8259 8.1: a leading byte-order mark may be ignored. Text and base64 bodies are read alike.
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') throw new InvalidJsonError('the body is empty');

    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // Very deep nesting can also end here (RangeError); either way the client sent something unusable.
      const reason = error instanceof SyntaxError ? error.message.slice(0, 120) : 'it could not be parsed';
      throw new InvalidJsonError(reason);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new InvalidRequestError([{ field: '', message: 'the body must be a JSON object, e.g. {"items": [...]}' }]);
    }
    request.internal.body = parsed as Record<string, unknown>;
  };

  return { before: jsonBodyBefore };
}
