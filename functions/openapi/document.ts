/**
 * The OpenAPI 3.1 document of the API, built from the zod schemas that validate the requests (request bodies and
 * query parameters come from z.toJSONSchema of those very schemas, so the document cannot describe another
 * request than the one the functions accept), the routes of functions/routes.ts, the price list and the error
 * catalogue. `npm run openapi` writes it to docs/openapi.json; a test fails when that file and this differ.
 */
import * as z from 'zod';
import { PUBLIC_ROUTES, type Route } from '../routes';
import { PRICE_LIST } from '../../shared/metering/price-list';
import { TIERS } from '../../shared/metering/tiers';
import { batchScreenRequestSchema, MAX_ITEMS, MAX_TITLE_CHARS } from '../batch-screen/schema';
import { imageSearchRequestSchema } from '../image-search/schema';
import { usageQuerySchema } from '../usage/schema';
import { accountQuerySchema } from '../account/schema';
import { putAllowlistRequestSchema } from '../put-allowlist/schema';
import { feedbackRequestSchema } from '../feedback/schema';
import { putWatchRequestSchema } from '../put-watch/schema';
import { getWatchQuerySchema } from '../get-watch/schema';
import { getAlertsQuerySchema } from '../get-alerts/handler';
import { ackAlertsRequestSchema } from '../ack-alerts/handler';
import { deleteWatchInputSchema } from '../delete-watch/handler';
import { putWebhookRequestSchema } from '../put-webhook/schema';
import { getWebhookQuerySchema } from '../get-webhook/handler';
import { deleteWebhookQuerySchema } from '../delete-webhook/handler';
import { testWebhookRequestSchema } from '../test-webhook/handler';
import { deadLettersQuerySchema } from '../webhook-dead-letters/handler';
import { redeliverRequestSchema } from '../redeliver-webhook/handler';
import { REPLAY_WINDOW_SECONDS } from '../../shared/webhooks/signature';
import { MAX_REQUEUED_PER_CALL } from '../../shared/webhooks/redeliver';
import { DEFAULT_ATTEMPTS } from '../../shared/webhooks/deliver-webhook';
import { DEAD_LETTER_DAYS, MAX_ALERTS_PER_EVENT } from '../../shared/webhooks/webhook';
import { MAX_WATCH_LOGOS_PER_CALL, MAX_WATCH_TITLES_PER_CALL } from '../../shared/watch/watch';
import { ERROR_CATALOGUE, errorCodesOf, type ErrorGroup } from './error-catalogue';
import { RESPONSE_SCHEMAS } from './response-schemas';

type JsonSchema = Record<string, unknown>;

/** How a zod request schema reads as JSON Schema: what a client may send (defaults make fields optional). */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

interface OperationSpec {
  summary: string;
  description: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** The path parameters (`{id}`), each a field of this object schema. */
  path?: z.ZodType;
  errors: ErrorGroup[];
  response: keyof typeof RESPONSE_SCHEMAS;
  example?: unknown;
  idempotent?: boolean;
  public?: boolean;
  /** The success status when it is not 200 (201: created). */
  status?: 201;
}

/** What each route is, in words and schemas. Keyed by function name: every route has one (a test checks). */
export const OPERATIONS: Record<Route['functionName'], OperationSpec> = {
  'batch-screen': {
    summary: 'Screen listing titles for trademarks',
    description: `Screens 1 to ${MAX_ITEMS} listing titles (up to ${MAX_TITLE_CHARS} characters each). results[i] answers items[i]. risk is 高 (high), 中 (medium) or 低 (low); tro_hit flags brands that file Schedule A TRO suits; "detail": true adds brand_words and conflicts (an allowlisted brand's conflicts carry "allowlisted": true and do not count).`,
    tag: 'Screening',
    body: batchScreenRequestSchema,
    errors: ['auth', 'metered', 'body', 'items'],
    response: 'batch-screen',
    example: {
      items: [
        { title: 'Wireless earbuds for iPhone, noise cancelling', nice: '9' },
        { title: 'Stainless steel apple slicer' },
      ],
    },
    idempotent: true,
  },
  'image-search': {
    summary: 'Search registered marks by logo',
    description:
      'Finds registered marks whose logo looks like the image (base64 in image_b64, or a public http(s) url: exactly one). Results by descending score in [0, 1] with a match verdict (likely, possible, none); "detail": true adds each result\'s region, its box in the picture\'s own pixels. A light logo on a dark or coloured ground is found as the dark original. degraded is true when the search fell back to the in-process index (the primary slow, failing or its model unloadable).',
    tag: 'Image search',
    body: imageSearchRequestSchema,
    errors: ['auth', 'metered', 'body', 'image'],
    response: 'image-search',
    example: { url: 'https://example.com/logo.png', country: 'US', limit: 5 },
    idempotent: true,
  },
  account: {
    summary: 'Your account: tier, balance, rate limit, key',
    description:
      'The account of the calling key, what each operation costs and whether this tier may call it. Free of charge, every tier.',
    tag: 'Account',
    query: accountQuerySchema,
    errors: ['auth'],
    response: 'account',
  },
  usage: {
    summary: 'Your usage records and totals',
    description:
      'Usage records of the account (scope=account) or of the calling key (scope=key) in a time range, newest first, paged with an opaque cursor; totals of the whole range per operation and per UTC day. Free of charge, every tier.',
    tag: 'Account',
    query: usageQuerySchema,
    errors: ['auth', 'query'],
    response: 'usage',
  },
  'get-allowlist': {
    summary: 'Your own brands (allowlist)',
    description:
      "The brands this account owns or is authorised to sell. Screening does not raise them on this account's calls. Free of charge, every tier.",
    tag: 'Account',
    query: z.object({}),
    errors: ['auth'],
    response: 'allowlist',
  },
  'put-allowlist': {
    summary: 'Replace your own brands (allowlist)',
    description:
      'Replaces the whole list ([] clears it). Other accounts are never affected. Free of charge, every tier.',
    tag: 'Account',
    body: putAllowlistRequestSchema,
    errors: ['auth', 'body', 'allowlist'],
    response: 'allowlist',
    example: { brands: ['Anker', 'Soundcore'] },
  },
  feedback: {
    summary: 'Report a wrong screening result',
    description:
      'Reports one screening result as a false alarm, a missed brand or the wrong mark: the batch-screen call by its request id and the item by its index (or a watched item by its id), with the title as it was screened. Kept with your account, never shown to another; reports are read by people and become labelled examples when the screening model is next fitted (they do not change answers at once). Free of charge, every tier.',
    tag: 'Screening',
    body: feedbackRequestSchema,
    errors: ['auth', 'body', 'idempotent'],
    response: 'feedback',
    status: 201,
    example: {
      request_id: '5f0c6d1e-8a4b-4c1e-9d2f-0b7e6a3c1d22',
      item_index: 1,
      title: 'Stainless steel apple slicer',
      kind: 'false_alarm',
      top_conflict: 'APPLE',
      note: 'apple is the fruit here',
    },
    idempotent: true,
  },
  'put-watch': {
    summary: 'Watch listing titles (and logos)',
    description: `Adds up to ${MAX_WATCH_TITLES_PER_CALL} listing titles ({id, title, nice?}, id being your own, e.g. a SKU) and up to ${MAX_WATCH_LOGOS_PER_CALL} logos by image reference ({id, image_url}) to your watched catalogue; an id already watched is replaced. Each title is screened now (results answer items in order) and charged like batch-screen; its result is kept, and when new register or TRO data lands every watched title is screened again free of charge: a title whose risk, conflicting mark or TRO flag changes raises an alert. Logos are stored and listed, free, but not yet screened or re-screened.`,
    tag: 'Watch',
    body: putWatchRequestSchema,
    errors: ['auth', 'metered', 'body', 'items'],
    response: 'put-watch',
    example: {
      items: [
        { id: 'SKU-1001', title: 'Wireless earbuds for iPhone, noise cancelling', nice: '9' },
        { id: 'SKU-1002', title: 'Stainless steel apple slicer' },
      ],
      logos: [{ id: 'LOGO-1', image_url: 'https://example.com/logo.png' }],
    },
    idempotent: true,
  },
  'get-watch': {
    summary: 'Your watched items',
    description:
      "The account's watched items in id order, each title with its last result (risk, tro_hit, top_conflict, data_as_of), paged with an opaque cursor. Free of charge, every tier.",
    tag: 'Watch',
    query: getWatchQuerySchema,
    errors: ['auth', 'query'],
    response: 'get-watch',
  },
  'delete-watch': {
    summary: 'Stop watching an item',
    description:
      'Removes one watched item (title or logo) by its id, percent-encoded in the path: it is no longer re-screened. Its alerts are kept, to be read and acknowledged as before. Answers deleted: false for an id that is not watched, so a retried call is no error. Free of charge, every tier.',
    tag: 'Watch',
    path: deleteWatchInputSchema,
    errors: ['auth', 'query'],
    response: 'delete-watch',
  },
  'get-alerts': {
    summary: 'Your alerts',
    description:
      'Watched titles whose result changed when new data landed: old and new risk, the conflicting mark before and now, the TRO flag, the data date. One alert per title and data batch, however often the batch is processed. Ordered by data date, paged with an opaque cursor; since (a data date) and acknowledged=true|false narrow the list. Free of charge, every tier.',
    tag: 'Watch',
    query: getAlertsQuerySchema,
    errors: ['auth', 'query'],
    response: 'get-alerts',
  },
  'ack-alerts': {
    summary: 'Acknowledge alerts',
    description:
      "Marks alerts acknowledged by id (up to 1,000 a call); ids that are not this account's alerts are answered in not_found. Acknowledging again changes nothing. Free of charge, every tier.",
    tag: 'Watch',
    body: ackAlertsRequestSchema,
    errors: ['auth', 'body', 'idempotent'],
    response: 'ack-alerts',
    example: { ids: ['al_20261123_3f9a0c2b7d1e4a5b6c7d'] },
    idempotent: true,
  },
  'put-webhook': {
    summary: 'Set your webhook',
    description: `Sets the HTTPS URL your alerts are POSTed to as they are recorded (events of type alerts.created, up to ${MAX_ALERTS_PER_EVENT} alerts each, shaped as in GET /v1/alerts). The URL must be https on port 443 and resolve only to public addresses (the rules of image URLs); it is checked now and at each delivery. The first call, and a call with rotate_secret: true, issues a signing secret: it is in this answer only (secret), so keep it. Each delivery carries Webhook-Id (the event id: deduplicate on it), Webhook-Timestamp (Unix seconds) and Webhook-Signature: v1=<hex HMAC-SHA256 with the secret over "<timestamp>.<raw body>">; refuse a timestamp more than ${REPLAY_WINDOW_SECONDS} s from your clock. Any 2xx is delivered; otherwise it is tried ${DEFAULT_ATTEMPTS} times with exponential backoff, then kept ${DEAD_LETTER_DAYS} days in GET /v1/webhook/dead-letters. Free of charge, professional and above.`,
    tag: 'Watch',
    body: putWebhookRequestSchema,
    errors: ['auth', 'body', 'webhook', 'idempotent'],
    response: 'put-webhook',
    example: { url: 'https://example.com/hooks/trademark-alerts' },
    idempotent: true,
  },
  'get-webhook': {
    summary: 'Your webhook',
    description:
      "The account's webhook: its URL and dates, never the secret (rotate it with PUT rotate_secret: true if it is lost). 404 not_found when none is set. Free of charge, every tier.",
    tag: 'Watch',
    query: getWebhookQuerySchema,
    errors: ['auth', 'webhook-read'],
    response: 'get-webhook',
  },
  'delete-webhook': {
    summary: 'Remove your webhook',
    description:
      'Removes the webhook: alerts are then only read with GET /v1/alerts; events already handed over are dropped. Dead letters stay until they expire. Answers deleted: false when none was set, so a retried call is no error. Free of charge, every tier.',
    tag: 'Watch',
    query: deleteWebhookQuerySchema,
    errors: ['auth'],
    response: 'delete-webhook',
  },
  'test-webhook': {
    summary: 'Send a test delivery',
    description:
      'Sends one signed event of type webhook.test (data: {}) to your webhook now, one try of at most 5 s, and answers the outcome: delivered, the status your receiver answered, or the error (a refused certificate, a timeout). Not retried and not dead-lettered. Send {} as the body. 404 not_found when no webhook is set. Free of charge, professional and above.',
    tag: 'Watch',
    body: testWebhookRequestSchema,
    errors: ['auth', 'body', 'webhook-read', 'idempotent', 'tier'],
    response: 'test-webhook',
    example: {},
  },
  'webhook-dead-letters': {
    summary: 'Webhook deliveries that failed',
    description: `Events that failed every try (${DEFAULT_ATTEMPTS} tries with exponential backoff), newest first: the event id, the URL, the tries, the last error and status, when, and the payload as it was sent. Kept ${DEAD_LETTER_DAYS} days; the alerts they carried are also on GET /v1/alerts. Paged with an opaque cursor. Free of charge, every tier.`,
    tag: 'Watch',
    query: deadLettersQuerySchema,
    errors: ['auth', 'query'],
    response: 'webhook-dead-letters',
  },
  'redeliver-webhook': {
    summary: 'Send dead letters again',
    description: `Once your receiver is fixed. With {"id": "evt_…"}: sends that dead letter again now, the payload as it was first sent, the same Webhook-Id, to your webhook URL and signed with your secret as they are now; one try of at most 5 s. Delivered, the dead letter is removed; otherwise it stays. Answers the outcome as a test delivery does; 404 not_found without that dead letter. With {"all": true}: hands up to ${MAX_REQUEUED_PER_CALL} dead letters, newest first, back for delivery (the same payload and Webhook-Id, ${DEFAULT_ATTEMPTS} tries with exponential backoff) and removes them from the dead letters; one that fails again is a new dead letter. Answers the event ids re-queued and next_cursor: pass it back as cursor (with all: true) for the dead letters after these, until it is null. Give id or all, not both. 404 not_found without a webhook. Free of charge, professional and above.`,
    tag: 'Watch',
    body: redeliverRequestSchema,
    errors: ['auth', 'body', 'webhook-read', 'idempotent', 'tier'],
    response: 'redeliver-webhook',
    example: { id: 'evt_3f9a0c2b7d1e4a5b6c7d8e9f' },
  },
  openapi: {
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API. No key needed.',
    tag: 'Reference',
    errors: [],
    response: 'openapi',
    public: true,
  },
  status: {
    summary: 'How fresh the data is',
    description:
      'Per market and source (marks, the TRO list, logos): the data date and id of the newest complete batch, how much is held, and the state of the jobs that keep it current. No key needed; the figures may be up to 30 s old (as_of says when they were read).',
    tag: 'Reference',
    errors: ['stores'],
    response: 'status',
    public: true,
  },
  docs: {
    summary: 'The API reference page',
    description: 'This document rendered as a page, with a client to try each operation. No key needed.',
    tag: 'Reference',
    errors: [],
    response: 'html',
    public: true,
  },
};

function errorResponses(groups: readonly ErrorGroup[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, codes] of errorCodesOf(groups)) {
    out[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c]!.when}`).join('\n\n'),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: { error: { code: codes[0], message: ERROR_CATALOGUE[codes[0]!]!.when, request_id: '5f0c6d1e-…' } },
        },
      },
      ...(status === 429 || status === 503
        ? {
            headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } },
          }
        : {}),
    };
  }
  return out;
}

function parametersOf(schema: z.ZodType, where: 'query' | 'path'): unknown[] {
  const json = requestJsonSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      // A path parameter is always required (OpenAPI 3.1).
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function operationObject(route: Route): Record<string, unknown> {
  const spec = OPERATIONS[route.functionName];
  const price = PRICE_LIST.find((p) => p.operation === route.functionName);
  const costLine = price
    ? `\n\n**Cost:** ${price.points === 0 ? 'free' : `${price.points} point${price.points === 1 ? '' : 's'} per ${price.per}`}. **Tier:** ${price.minTier === 'free' ? 'every tier' : `${price.minTier} and above`}.`
    : '';
  const success = RESPONSE_SCHEMAS[spec.response];
  return {
    operationId: route.functionName.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()),
    summary: spec.summary,
    description: spec.description + costLine,
    tags: [spec.tag],
    ...(spec.public ? { security: [] } : {}),
    ...(price ? { 'x-points-cost': { points: price.points, per: price.per }, 'x-min-tier': price.minTier } : {}),
    parameters: [
      ...(spec.path ? parametersOf(spec.path, 'path') : []),
      ...(spec.query ? parametersOf(spec.query, 'query') : []),
      ...(spec.idempotent
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'Replays the first response for 24 h without charging again; the same key with another body is 422.',
              schema: { type: 'string', minLength: 1, maxLength: 255 },
            },
          ]
        : []),
    ],
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: requestJsonSchema(spec.body),
                ...(spec.example ? { example: spec.example } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [String(spec.status ?? 200)]: {
        description: spec.status === 201 ? 'Created' : 'Success',
        ...(price && price.points > 0
          ? {
              headers: {
                'X-Points-Cost': { description: 'Points this call cost', schema: { type: 'integer' } },
                'X-Points-Balance': { description: 'Balance after the call', schema: { type: 'integer' } },
              },
            }
          : {}),
        content: { [success.mediaType]: { schema: success.schema } },
      },
      ...errorResponses(spec.errors),
    },
  };
}

const DESCRIPTION = `Trademark-risk screening of listing titles and logo search for cross-border sellers.

**Authentication.** Every /v1 call but \`GET /v1/openapi.json\` and \`GET /v1/status\` carries \`Authorization: Bearer <API key>\` (keys look like \`tmk_<env>_<32 letters and digits>\`).

**Points and tiers.** Tiers, lowest first: ${TIERS.join(' < ')}. ${PRICE_LIST.filter((p) => p.points > 0)
  .map(
    (p) =>
      `\`${p.method} ${p.path}\` costs ${p.points} point${p.points === 1 ? '' : 's'} per ${p.per} (${p.minTier} and above)`,
  )
  .join(
    '; ',
  )}; account, usage, allowlist, feedback, watch-list reads and removals, webhook reads, removals and dead letters are free on every tier; setting a webhook and a test delivery are free for professional and above; re-screens of watched titles on new data are free. Refused requests (4xx) and failures (5xx) cost nothing. Successful metered calls carry \`X-Points-Cost\` and \`X-Points-Balance\`.

**Errors.** One shape everywhere: \`{"error": {"code", "message", "request_id", "details"?}}\`. \`Accept-Language: zh\` gives messages in Chinese.

| status | code | when |
|---|---|---|
${Object.entries(ERROR_CATALOGUE)
  .map(([code, e]) => `| ${e.status} | \`${code}\` | ${e.when} |`)
  .join('\n')}
`;

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of PUBLIC_ROUTES) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationObject(route) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Trademark-risk API', version: '1.0.0', description: DESCRIPTION },
    security: [{ bearerAuth: [] }],
    tags: [{ name: 'Screening' }, { name: 'Image search' }, { name: 'Account' }, { name: 'Reference' }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'tmk_<env>_<32 base62 characters>' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'request_id'],
              properties: {
                code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
                message: { type: 'string' },
                request_id: { type: 'string' },
                details: { type: 'object' },
              },
            },
          },
        },
      },
    },
  };
}
