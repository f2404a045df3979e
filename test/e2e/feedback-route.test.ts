/**
 * POST /v1/feedback over real HTTP against DynamoDB Local: a report on a screening result is stored with the
 * account (201 and its id), free of charge on every tier; refusals name the field; an Idempotency-Key stores one
 * report however often it is sent; and no feedback text (title, note, brand) reaches a log line.
 */
import type { RunningServer } from '../../local/server';
import { buildFeedbackStore } from '../../shared/composition/feedback';
import { feedbackIdAt, type FeedbackRecord } from '../../shared/feedback/feedback';
import { captureOutput } from '../support/captured-output';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  server = await startTestServer(stack);
});
afterAll(async () => server?.close());

const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
const report = (body: unknown, apiKey: string, headers: Record<string, string> = {}) =>
  post(`${server.url}/v1/feedback`, body, { ...bearer(apiKey), ...headers });

async function storedOf(accountId: string): Promise<FeedbackRecord[]> {
  const out: FeedbackRecord[] = [];
  for await (const record of buildFeedbackStore(stack.config).all())
    if (record.accountId === accountId) out.push(record);
  return out;
}

const FALSE_ALARM = {
  request_id: '5f0c6d1e-8a4b-4c1e-9d2f-0b7e6a3c1d22',
  item_index: 1,
  title: 'Stainless steel apple slicer',
  kind: 'false_alarm',
  top_conflict: 'APPLE',
  note: 'apple is the fruit here',
};

describe('POST /v1/feedback', () => {
  it('stores the report with the account and answers 201 with its id, free of charge on the free tier', async () => {
    const { accountId, apiKey, keyId } = await stack.openAccount({ tier: 'free', points: 0 });

    const response = await report(FALSE_ALARM, apiKey);

    expect(response.status).toBe(201);
    const body = await readJson(response);
    expect(body.id).toMatch(/^fb_\d{17}_[0-9A-Za-z]{10}$/);
    expect(feedbackIdAt(body.id)?.toISOString()).toBe(body.created_at);
    expect(await storedOf(accountId)).toEqual([
      {
        accountId,
        feedbackId: body.id,
        kind: 'false_alarm',
        title: FALSE_ALARM.title,
        topConflict: 'APPLE',
        note: FALSE_ALARM.note,
        requestId: FALSE_ALARM.request_id,
        itemIndex: 1,
        keyId,
        reportRequestId: response.headers.get('x-request-id'),
        createdAt: body.created_at,
      },
    ]);
    expect(response.headers.get('x-points-cost')).toBeNull();
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('takes a watched item id instead of request_id and item_index, and a missed brand with its brand', async () => {
    const { accountId, apiKey } = await stack.openAccount();

    const response = await report(
      {
        watch_item_id: 'w_123/sku-9',
        title: 'Wireless earbuds by Soundcore',
        kind: 'missed_brand',
        brand: 'Soundcore',
      },
      apiKey,
    );

    expect(response.status).toBe(201);
    expect(await storedOf(accountId)).toEqual([
      expect.objectContaining({ watchItemId: 'w_123/sku-9', kind: 'missed_brand', brand: 'Soundcore' }),
    ]);
  });

  it.each([
    [
      { ...FALSE_ALARM, kind: 'missed_brand', top_conflict: undefined },
      'brand',
      'is required when kind is missed_brand',
    ],
    [{ ...FALSE_ALARM, request_id: undefined }, 'request_id', 'is required (or give watch_item_id)'],
    [
      { ...FALSE_ALARM, watch_item_id: 'w1' },
      'watch_item_id',
      'give request_id and item_index, or watch_item_id, not both',
    ],
    [{ ...FALSE_ALARM, item_index: 1000 }, 'item_index', 'must be at most 999'],
    [{ ...FALSE_ALARM, kind: 'wrong' }, 'kind', 'must be one of false_alarm, missed_brand, wrong_mark'],
    [{ ...FALSE_ALARM, title: ' ' }, 'title', 'must not be empty'],
    [{ ...FALSE_ALARM, note: 'x'.repeat(1001) }, 'note', 'must be at most 1000 characters'],
    [{ ...FALSE_ALARM, mark: 'Apple' }, 'mark', 'is only for kind wrong_mark'],
  ])('refuses %j with 400 invalid_request naming %s, and stores nothing', async (body, field, message) => {
    const { accountId, apiKey } = await stack.openAccount();

    const response = await report(body, apiKey);

    expect(response.status).toBe(400);
    const { error } = await readJson(response);
    expect(error.code).toBe('invalid_request');
    expect(error.details.issues).toContainEqual({ field, message });
    expect(await storedOf(accountId)).toEqual([]);
  });

  it('refuses a call without a key (401) and stores nothing', async () => {
    const response = await post(`${server.url}/v1/feedback`, FALSE_ALARM);

    expect(response.status).toBe(401);
    expect((await readJson(response)).error.code).toBe('missing_api_key');
  });

  it('stores one report for one Idempotency-Key, replaying the first answer; another body is 422', async () => {
    const { accountId, apiKey } = await stack.openAccount();
    const key = { 'Idempotency-Key': 'feedback-once-1' };

    const first = await report(FALSE_ALARM, apiKey, key);
    const again = await report(FALSE_ALARM, apiKey, key);
    const other = await report({ ...FALSE_ALARM, item_index: 2 }, apiKey, key);

    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await readJson(again)).id).toBe((await readJson(first)).id);
    expect(other.status).toBe(422);
    expect(await storedOf(accountId)).toHaveLength(1);
  });

  it('is rate-limited like the other free routes', async () => {
    const { apiKey } = await stack.openAccount({ rateLimit: 1 });

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await report(FALSE_ALARM, apiKey)).status);

    expect(statuses).toContain(429);
  });
});

describe('feedback text and the logs', () => {
  const SECRET_TITLE = 'Zqxv-unique-title-7781 ceramic mug';
  const SECRET_NOTE = 'note-text-that-must-stay-private-4410';
  const SECRET_BRAND = 'Brandname-private-5521';

  let logged: { stack: TestStack; server: RunningServer };

  beforeAll(async () => {
    // Every level on, for this stack only (the logger reads its level when it is built).
    process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
    const loggedStack = await createTestStack();
    logged = { stack: loggedStack, server: await startTestServer(loggedStack) };
  });
  afterAll(async () => {
    process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
    await logged?.server.close();
  });
  const reportLogged = (body: unknown, apiKey: string) =>
    post(`${logged.server.url}/v1/feedback`, body, bearer(apiKey));

  it('writes the access line of a report (and of a refused or unreadable one) without its title, note or brand', async () => {
    const { apiKey } = await logged.stack.openAccount();
    const output = captureOutput();
    let requestIds: (string | null)[];
    try {
      const stored = await reportLogged(
        {
          ...FALSE_ALARM,
          title: SECRET_TITLE,
          note: SECRET_NOTE,
          kind: 'missed_brand',
          brand: SECRET_BRAND,
          top_conflict: undefined,
        },
        apiKey,
      );
      const refused = await reportLogged(
        { ...FALSE_ALARM, title: SECRET_TITLE, note: `${SECRET_NOTE}${'x'.repeat(1000)}` },
        apiKey,
      );
      // Not JSON: the parser's message quotes the body back to the client, never to the log.
      const unreadable = await reportLogged(`{"title": "${SECRET_TITLE}", "note": "${SECRET_NOTE}" oops`, apiKey);
      expect([stored.status, refused.status, unreadable.status]).toEqual([201, 400, 400]);
      requestIds = [stored, refused, unreadable].map((r) => r.headers.get('x-request-id'));
    } finally {
      output.restore();
    }

    const text = output.lines().join('\n');
    for (const requestId of requestIds) expect(text).toContain(requestId!);
    expect(text).not.toContain(SECRET_TITLE);
    expect(text).not.toContain('Zqxv');
    expect(text).not.toContain(SECRET_NOTE);
    expect(text).not.toContain(SECRET_BRAND);
  });
});
