/**
 * The statuses and codes README's error table documents, written out here rather than read from shared/errors.ts,
 * so that a status or code the product invents without documenting it fails the suites that use this.
 */
import type { RawResponse } from './raw-http';

export const DOCUMENTED_ERRORS: Readonly<Record<number, readonly string[]>> = {
  400: [
    'invalid_json',
    'invalid_request',
    'country_not_supported',
    'parameter_conflict',
    'image_source_conflict',
    'image_source_missing',
    'image_unreadable',
    'image_too_complex',
    'url_not_allowed',
    'malformed_request',
  ],
  401: ['missing_api_key', 'invalid_api_key'],
  402: ['insufficient_points'],
  403: ['tier_not_allowed', 'account_suspended'],
  404: ['not_found'],
  405: ['method_not_allowed'],
  409: ['idempotency_key_in_progress'],
  413: ['payload_too_large', 'too_many_items', 'batch_too_complex'],
  415: ['unsupported_media_type'],
  422: ['url_fetch_failed', 'idempotency_key_reused', 'image_has_no_content'],
  429: ['rate_limited'],
  431: ['headers_too_large'],
  503: ['service_unavailable'],
};

/**
 * Why a response breaks the documented contract, or undefined when it keeps it: a documented status (never 500),
 * and for an error the envelope `{"error": {code, message, request_id, details?}}` with a code of that status and
 * the request id of the X-Request-Id header. A HEAD answer has no body to check.
 */
export function contractBreach(response: RawResponse, method: string): string | undefined {
  const { status, json } = response;
  if (status >= 200 && status < 300) return undefined;
  const codes = DOCUMENTED_ERRORS[status];
  if (!codes)
    return `undocumented status ${status}${response.error ? ` (${response.error})` : ''}: ${response.text.slice(0, 200)}`;
  const requestId = response.headers['x-request-id'];
  if (typeof requestId !== 'string' || requestId === '') return `status ${status} without X-Request-Id`;
  if (method.toUpperCase() === 'HEAD') return undefined;
  const error = json?.error;
  if (
    !json ||
    typeof json !== 'object' ||
    Object.keys(json).join() !== 'error' ||
    !error ||
    typeof error !== 'object'
  ) {
    return `status ${status} without the error envelope: ${response.text.slice(0, 200)}`;
  }
  const keys = Object.keys(error).sort().join();
  if (keys !== 'code,message,request_id' && keys !== 'code,details,message,request_id') return `envelope keys ${keys}`;
  if (!codes.includes(error.code)) return `code ${String(error.code)} is not documented for ${status}`;
  if (typeof error.message !== 'string' || error.message === '') return `empty message for ${error.code}`;
  if (error.request_id !== requestId) return `request_id ${String(error.request_id)} is not X-Request-Id ${requestId}`;
  if (
    error.details !== undefined &&
    (typeof error.details !== 'object' || error.details === null || Array.isArray(error.details))
  ) {
    return `details of ${error.code} is not an object`;
  }
  return undefined;
}
