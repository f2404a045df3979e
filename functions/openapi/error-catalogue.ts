/** Every error code a client can see, its status and when it happens: the OpenAPI document and README list these. */
export interface CatalogueEntry {
  status: number;
  when: string;
}

export const ERROR_CATALOGUE: Record<string, CatalogueEntry> = {
  invalid_json: { status: 400, when: 'The body is not one UTF-8 JSON object.' },
  invalid_request: {
    status: 400,
    when: 'A field or query parameter is missing or invalid; details.issues names each one.',
  },
  country_not_supported: { status: 400, when: 'country is not US or CN.' },
  parameter_conflict: { status: 400, when: 'The body and the query string give different values for one field.' },
  image_source_conflict: { status: 400, when: 'Both image_b64 and url were given.' },
  image_source_missing: { status: 400, when: 'Neither image_b64 nor url was given.' },
  image_unreadable: {
    status: 400,
    when: 'The image is not a PNG, JPEG, WebP, GIF or SVG within 4 MB and 4096x4096 pixels.',
  },
  image_too_complex: {
    status: 400,
    when: 'An SVG is over its rendering budget (filters, nesting, elements) or did not render in time.',
  },
  url_not_allowed: {
    status: 400,
    when: 'The url is not http(s) on port 80/443 to a public address (a webhook url: https on 443 only).',
  },
  malformed_request: { status: 400, when: 'The request line or headers are not valid HTTP.' },
  missing_api_key: { status: 401, when: 'No Authorization header.' },
  invalid_api_key: { status: 401, when: 'The key is malformed, unknown, revoked, or past its rotation grace period.' },
  insufficient_points: { status: 402, when: 'The balance is below the cost; details give balance and cost.' },
  tier_not_allowed: { status: 403, when: "The account's tier may not call this operation." },
  account_suspended: { status: 403, when: 'The account is suspended.' },
  not_found: { status: 404, when: 'No operation at this path, or (webhook routes) no webhook is set.' },
  method_not_allowed: { status: 405, when: 'The path exists, the method does not.' },
  idempotency_key_in_progress: { status: 409, when: 'A request with this Idempotency-Key is still running.' },
  payload_too_large: { status: 413, when: 'The body is larger than the limit.' },
  too_many_items: { status: 413, when: 'More than 1,000 items (batch-screen) or 500 brands (allowlist).' },
  batch_too_complex: {
    status: 413,
    when: 'The batch asks for more screening work than one call may do; details.items_that_fit says how many fit.',
  },
  unsupported_media_type: { status: 415, when: 'The body is not sent as application/json.' },
  image_has_no_content: {
    status: 422,
    when: 'The image is one colour, or nothing is left once its plain border is trimmed; no points were charged.',
  },
  url_fetch_failed: { status: 422, when: 'The image at url could not be fetched.' },
  idempotency_key_reused: { status: 422, when: 'This Idempotency-Key was used with another request.' },
  rate_limited: { status: 429, when: "The account's request rate is over its limit; wait Retry-After seconds." },
  headers_too_large: { status: 431, when: 'The request line and headers are too large.' },
  internal_error: {
    status: 500,
    when: 'A fault on our side; no points were charged. The request id helps us find it.',
  },
  service_unavailable: {
    status: 503,
    when: 'A backing service is unavailable; no points were charged. Retry after Retry-After seconds.',
  },
};

/** The errors an operation can answer, by what it does. */
export type ErrorGroup =
  | 'auth'
  | 'metered'
  | 'body'
  | 'items'
  | 'image'
  | 'query'
  | 'allowlist'
  | 'stores'
  | 'idempotent'
  | 'webhook'
  | 'webhook-read'
  | 'tier';

const GROUPS: Record<ErrorGroup, readonly string[]> = {
  auth: [
    'missing_api_key',
    'invalid_api_key',
    'account_suspended',
    'rate_limited',
    'internal_error',
    'service_unavailable',
  ],
  metered: ['tier_not_allowed', 'insufficient_points', 'idempotency_key_in_progress', 'idempotency_key_reused'],
  body: ['invalid_json', 'invalid_request', 'payload_too_large', 'unsupported_media_type'],
  items: ['too_many_items', 'batch_too_complex'],
  image: [
    'country_not_supported',
    'parameter_conflict',
    'image_source_conflict',
    'image_source_missing',
    'image_unreadable',
    'image_too_complex',
    'image_has_no_content',
    'url_not_allowed',
    'url_fetch_failed',
  ],
  query: ['invalid_request'],
  allowlist: ['too_many_items'],
  /** A free write that takes an Idempotency-Key. */
  idempotent: ['idempotency_key_in_progress', 'idempotency_key_reused'],
  /** Setting a webhook: its tier and its URL's rules. */
  webhook: ['tier_not_allowed', 'url_not_allowed'],
  /** A route that needs the account's webhook. */
  'webhook-read': ['not_found'],
  tier: ['tier_not_allowed'],
  /** A route without a key that reads the stores. */
  stores: ['internal_error', 'service_unavailable'],
};

/** The codes of the groups, by status, in ascending order of status. */
export function errorCodesOf(groups: readonly ErrorGroup[]): [number, string[]][] {
  const byStatus = new Map<number, Set<string>>();
  for (const code of groups.flatMap((g) => GROUPS[g])) {
    const { status } = ERROR_CATALOGUE[code]!;
    if (!byStatus.has(status)) byStatus.set(status, new Set());
    byStatus.get(status)!.add(code);
  }
  return [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes]]);
}
