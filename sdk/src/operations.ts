/**
 * Which SDK method answers which operation of the API, and the response fields the SDK's types require, as data:
 * a test holds both to the OpenAPI document the API serves, so a route or field the SDK lacks fails it.
 */

export interface OperationBinding {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As documented; a `{name}` segment is filled from the call's path parameters, percent-encoded. */
  path: string;
  /** The TrademarkRiskClient method for it. */
  sdkMethod: string;
  /** Sent with an Idempotency-Key (generated per call, reused across its retries). */
  idempotent: boolean;
  /** The success status. */
  status: number;
}

export const OPERATIONS = {
  batchScreen: { method: 'POST', path: '/v1/batch-screen', sdkMethod: 'batchScreen', idempotent: true, status: 200 },
  imageSearch: { method: 'POST', path: '/v1/image-search', sdkMethod: 'imageSearch', idempotent: true, status: 200 },
  account: { method: 'GET', path: '/v1/account', sdkMethod: 'account', idempotent: false, status: 200 },
  usage: { method: 'GET', path: '/v1/usage', sdkMethod: 'usage', idempotent: false, status: 200 },
  getAllowlist: { method: 'GET', path: '/v1/allowlist', sdkMethod: 'getAllowlist', idempotent: false, status: 200 },
  putAllowlist: { method: 'PUT', path: '/v1/allowlist', sdkMethod: 'putAllowlist', idempotent: true, status: 200 },
  feedback: { method: 'POST', path: '/v1/feedback', sdkMethod: 'feedback', idempotent: true, status: 201 },
  putWatch: { method: 'PUT', path: '/v1/watch', sdkMethod: 'putWatch', idempotent: true, status: 200 },
  getWatch: { method: 'GET', path: '/v1/watch', sdkMethod: 'getWatch', idempotent: false, status: 200 },
  deleteWatch: {
    method: 'DELETE',
    path: '/v1/watch/{id}',
    sdkMethod: 'deleteWatch',
    idempotent: false,
    status: 200,
  },
  getAlerts: { method: 'GET', path: '/v1/alerts', sdkMethod: 'getAlerts', idempotent: false, status: 200 },
  ackAlerts: { method: 'POST', path: '/v1/alerts/ack', sdkMethod: 'ackAlerts', idempotent: true, status: 200 },
  putWebhook: { method: 'PUT', path: '/v1/webhook', sdkMethod: 'putWebhook', idempotent: true, status: 200 },
  getWebhook: { method: 'GET', path: '/v1/webhook', sdkMethod: 'getWebhook', idempotent: false, status: 200 },
  deleteWebhook: {
    method: 'DELETE',
    path: '/v1/webhook',
    sdkMethod: 'deleteWebhook',
    idempotent: false,
    status: 200,
  },
  testWebhook: { method: 'POST', path: '/v1/webhook/test', sdkMethod: 'testWebhook', idempotent: false, status: 200 },
  redeliverWebhook: {
    method: 'POST',
    path: '/v1/webhook/redeliver',
    sdkMethod: 'redeliverWebhook',
    idempotent: false,
    status: 200,
  },
  webhookDeadLetters: {
    method: 'GET',
    path: '/v1/webhook/dead-letters',
    sdkMethod: 'webhookDeadLetters',
    idempotent: false,
    status: 200,
  },
  openapi: { method: 'GET', path: '/v1/openapi.json', sdkMethod: 'openapi', idempotent: false, status: 200 },
  status: { method: 'GET', path: '/v1/status', sdkMethod: 'status', idempotent: false, status: 200 },
  docs: { method: 'GET', path: '/docs', sdkMethod: 'docsUrl', idempotent: false, status: 200 },
} as const satisfies Record<string, OperationBinding>;

export type OperationId = keyof typeof OPERATIONS;

/**
 * Per operation, the fields its SDK response type declares as always present: `a.b` is a nested object's field,
 * `a[].b` a field of each element of array `a`.
 */
export const RESPONSE_FIELDS: Record<OperationId, readonly string[]> = {
  batchScreen: [
    'results',
    'count',
    'data_as_of',
    'results[].name',
    'results[].risk',
    'results[].tro_hit',
    'results[].top_conflict',
  ],
  imageSearch: ['results', 'count', 'data_as_of', 'degraded'],
  account: [
    'account_id',
    'name',
    'tier',
    'balance',
    'rate_limit',
    'rate_limit.requests',
    'rate_limit.window_seconds',
    'rate_limit.remaining',
    'key',
    'key.id',
    'key.prefix',
    'created_at',
    'operations',
    'operations[].operation',
    'operations[].method',
    'operations[].path',
    'operations[].points',
    'operations[].per',
    'operations[].min_tier',
    'operations[].allowed',
  ],
  usage: [
    'from',
    'to',
    'scope',
    'records',
    'count',
    'next_cursor',
    'records[].id',
    'records[].at',
    'records[].kind',
    'records[].status',
    'records[].points',
  ],
  getAllowlist: ['brands', 'count', 'max_brands', 'updated_at'],
  putAllowlist: ['brands', 'count', 'max_brands', 'updated_at'],
  feedback: ['id', 'created_at'],
  putWatch: [
    'results',
    'titles',
    'logos',
    'data_as_of',
    'results[].id',
    'results[].risk',
    'results[].tro_hit',
    'results[].top_conflict',
  ],
  getWatch: ['items', 'count', 'next_cursor', 'items[].id', 'items[].kind', 'items[].added_at'],
  deleteWatch: ['id', 'deleted'],
  getAlerts: [
    'alerts',
    'count',
    'next_cursor',
    'alerts[].id',
    'alerts[].item_id',
    'alerts[].title',
    'alerts[].old_risk',
    'alerts[].new_risk',
    'alerts[].old_top_conflict',
    'alerts[].top_conflict',
    'alerts[].tro_hit',
    'alerts[].market',
    'alerts[].data_as_of',
    'alerts[].created_at',
    'alerts[].acknowledged',
  ],
  ackAlerts: ['acknowledged', 'not_found'],
  putWebhook: ['url', 'created_at', 'updated_at', 'secret_issued_at'],
  getWebhook: ['url', 'created_at', 'updated_at', 'secret_issued_at'],
  deleteWebhook: ['deleted'],
  testWebhook: ['event_id', 'url', 'delivered', 'duration_ms'],
  redeliverWebhook: ['event_id', 'url', 'delivered', 'duration_ms'],
  webhookDeadLetters: [
    'dead_letters',
    'count',
    'next_cursor',
    'dead_letters[].id',
    'dead_letters[].url',
    'dead_letters[].attempts',
    'dead_letters[].last_error',
    'dead_letters[].failed_at',
    'dead_letters[].payload',
  ],
  openapi: [],
  status: [
    'as_of',
    'markets',
    'markets[].market',
    'markets[].sources',
    'markets[].sources[].source',
    'markets[].sources[].data_as_of',
    'markets[].sources[].batch',
    'markets[].sources[].jobs',
  ],
  docs: [],
};
