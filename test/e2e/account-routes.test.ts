/**
 * The free routes over real HTTP against DynamoDB Local: GET /v1/account, GET /v1/usage (ranges, cursor paging,
 * totals, scope), GET/PUT /v1/allowlist and what the allowlist does to screening (per account, never another's),
 * and what suspension and key rotation do to every route.
 */
import { Readable } from 'node:stream';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { resumeAccount, rotateApiKey, suspendAccount } from '../../shared/metering/account-admin';
import type { RunningServer } from '../../local/server';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';

const MARKS = [
  { serial: 'US-ACC-ANKER', mark: 'Anker', nice: [9], is_live: true, drawing_kind: 'word' },
  { serial: 'US-ACC-STANLEY', mark: 'Stanley', nice: [8, 21], is_live: true, drawing_kind: 'word' },
];
const TITLE = 'Anker power bank 10000mAh USB-C portable charger';
const BOTH = 'Anker charger with Stanley tumbler bundle';

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  const input = Readable.from([MARKS.map((m) => JSON.stringify(m)).join('\n')]);
  const summary = await ingestBatch(buildDataStores(stack.config), {
    holder: 'e2e-account',
    source: 'e2e',
    kind: 'marks-jsonl',
    market: 'US',
    input,
    batchDate: '2026-11-20',
  });
  if (!summary.complete) throw new Error('the corpus did not load');
  server = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
});
afterAll(async () => server?.close());

const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
const get = (path: string, apiKey?: string) => fetch(`${server.url}${path}`, { headers: apiKey ? bearer(apiKey) : {} });
const put = (path: string, body: unknown, apiKey: string) =>
  fetch(`${server.url}${path}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...bearer(apiKey) },
    body: JSON.stringify(body),
  });

describe('GET /v1/account', () => {
  it('answers tier, balance, rate limit and the key prefix, free of charge, with no usage record', async () => {
    const { accountId, apiKey, keyId } = await stack.openAccount({ points: 321, rateLimit: 40 });

    const response = await get('/v1/account', apiKey);

    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body).toMatchObject({
      account_id: accountId,
      tier: 'professional',
      balance: 321,
      rate_limit: { requests: 40, window_seconds: 1 },
      key: { id: keyId },
    });
    expect(apiKey.startsWith(body.key.prefix.replace(/…$/, ''))).toBe(true);
    expect(body.operations.find((o: { operation: string }) => o.operation === 'batch-screen')).toMatchObject({
      points: 1,
      per: 'item',
      allowed: true,
    });
    expect(response.headers.get('x-points-cost')).toBeNull();
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(321);
    expect((await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge')).toEqual([]);
  });

  it('serves every tier, the free tier included, and says what that tier may not call', async () => {
    const { apiKey } = await stack.openAccount({ tier: 'free', points: 0 });
    const body = await readJson(await get('/v1/v1/account', apiKey));
    expect(body.tier).toBe('free');
    expect(body.operations.find((o: { operation: string }) => o.operation === 'image-search').allowed).toBe(false);
  });

  it('refuses a call without a key (401 missing_api_key) and a POST (405)', async () => {
    expect((await readJson(await get('/v1/account'))).error.code).toBe('missing_api_key');
    const { apiKey } = await stack.openAccount();
    const response = await post(`${server.url}/v1/account`, {}, bearer(apiKey));
    expect([response.status, (await readJson(response)).error.code]).toEqual([405, 'method_not_allowed']);
  });
});

describe('GET /v1/usage', () => {
  it('lists the records newest first, pages through them with the cursor, and totals the whole range', async () => {
    const { apiKey, keyId } = await stack.openAccount({ points: 1000 });
    for (const points of [1, 2, 3, 4, 5])
      expect((await post(`${server.url}/v1/test-charge`, { points }, bearer(apiKey))).status).toBe(200);

    const pages: { points: number; key_id: string; kind: string }[][] = [];
    let cursor: string | null = null;
    let totals: unknown;
    do {
      const response = await get(`/v1/usage?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, apiKey);
      expect(response.status).toBe(200);
      const body = await readJson(response);
      pages.push(body.records);
      cursor = body.next_cursor;
      totals ??= body.totals;
    } while (cursor);

    const charges = pages.flat().filter((r) => r.kind === 'charge');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2]); // five charges and the opening credit
    expect(charges.map((r) => r.points)).toEqual([5, 4, 3, 2, 1]);
    expect(charges.every((r) => r.key_id === keyId)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(totals).toEqual({
      requests: 5,
      points: 15,
      units: 5,
      refunded_requests: 0,
      complete: true,
      by_operation: { 'test-charge': { requests: 5, points: 15, units: 5 } },
      by_day: [{ date: today, operation: 'test-charge', requests: 5, points: 15, units: 5 }],
    });
  });

  it('scope=key shows only the calling key; a refunded charge counts as refunded, not as points', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 1000 });
    const { issueApiKey } = await import('../../shared/metering/accounts');
    const second = await issueApiKey(stack.deps.accounts, { accountId, envName: 'test', now: new Date() });
    await post(`${server.url}/v1/test-charge`, { points: 7 }, bearer(apiKey));
    await post(`${server.url}/v1/test-charge`, { points: 9 }, bearer(second.apiKey));
    expect(
      (await post(`${server.url}/v1/test-charge`, { points: 11, fail: 'crash' }, bearer(second.apiKey))).status,
    ).toBe(500);

    const mine = await readJson(await get('/v1/usage?scope=key', second.apiKey));
    const all = await readJson(await get('/v1/usage', apiKey));

    expect(mine.records.map((r: { points: number }) => r.points)).toEqual([11, 9]);
    expect(mine.totals).toMatchObject({ requests: 1, points: 9, refunded_requests: 1 });
    expect(all.totals).toMatchObject({ requests: 2, points: 16, refunded_requests: 1 });
  });

  it('takes a range of dates: records outside it are neither listed nor totalled', async () => {
    const { apiKey } = await stack.openAccount({ points: 100 });
    await post(`${server.url}/v1/test-charge`, { points: 3 }, bearer(apiKey));
    const body = await readJson(await get('/v1/usage?from=2020-01-01&to=2020-01-31', apiKey));
    expect([body.records, body.totals.requests, body.next_cursor, body.from, body.to]).toEqual([
      [],
      0,
      null,
      '2020-01-01T00:00:00.000Z',
      '2020-02-01T00:00:00.000Z',
    ]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['from=yesterday', 'from'],
    ['from=2026-02-01&to=2026-01-01', 'from'],
    ['from=2025-01-01&to=2026-01-01', 'from'],
    ['scope=everyone', 'scope'],
    ['cursor=not-a-cursor', 'cursor'],
  ])('refuses %s with 400 invalid_request naming %s', async (query, field) => {
    const { apiKey } = await stack.openAccount();
    const response = await get(`/v1/usage?${query}`, apiKey);
    const body = await readJson(response);
    expect([response.status, body.error.code]).toEqual([400, 'invalid_request']);
    expect(body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  it('refuses a cursor sent with another range than the one it was made for', async () => {
    const { apiKey } = await stack.openAccount({ points: 100 });
    for (let i = 0; i < 3; i++) await post(`${server.url}/v1/test-charge`, { points: 1 }, bearer(apiKey));
    const first = await readJson(await get('/v1/usage?limit=1', apiKey));
    const response = await get(
      `/v1/usage?limit=1&from=2026-01-01&cursor=${encodeURIComponent(first.next_cursor)}`,
      apiKey,
    );
    expect([response.status, (await readJson(response)).error.details.issues[0].field]).toEqual([400, 'cursor']);
  });
});

describe('the allowlist', () => {
  const screen = async (apiKey: string, titles: string[], detail = false) => {
    const response = await post(
      `${server.url}/v1/batch-screen`,
      { items: titles.map((title) => ({ title, nice: '9' })), detail },
      bearer(apiKey),
    );
    expect(response.status).toBe(200);
    return (await readJson(response)).results;
  };

  it('PUT replaces the list (one spelling per brand), GET reads it back; both free', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 50 });
    expect(await readJson(await get('/v1/allowlist', apiKey))).toEqual({
      brands: [],
      count: 0,
      max_brands: 500,
      updated_at: null,
    });

    const saved = await readJson(await put('/v1/allowlist', { brands: ['Anker', ' ANKER ', 'Sound-Core'] }, apiKey));

    expect(saved).toMatchObject({ brands: ['Anker', 'Sound-Core'], count: 2 });
    expect(await readJson(await get('/v1/allowlist', apiKey))).toMatchObject({
      brands: ['Anker', 'Sound-Core'],
      count: 2,
    });
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(50);
  });

  it('screening does not raise an allowlisted brand for that account, and says so with detail', async () => {
    const owner = await stack.openAccount({ points: 100 });
    await put('/v1/allowlist', { brands: ['anker'] }, owner.apiKey);

    const [plain] = await screen(owner.apiKey, [TITLE]);
    const [detailed, mixed] = await screen(owner.apiKey, [TITLE, BOTH], true);

    expect(plain).toEqual({ name: TITLE, risk: '低', tro_hit: false, top_conflict: '' });
    expect(detailed.conflicts).toEqual([expect.objectContaining({ mark: 'Anker', allowlisted: true })]);
    expect(detailed.brand_words).toEqual([]);
    expect(mixed.top_conflict).toBe('Stanley');
    expect(
      mixed.conflicts.map((c: { mark: string; allowlisted?: boolean }) => [c.mark, c.allowlisted ?? false]),
    ).toEqual([
      ['Stanley', false],
      ['Anker', true],
    ]);
  });

  it("one account's list never affects another's screening", async () => {
    const owner = await stack.openAccount({ points: 100 });
    const other = await stack.openAccount({ points: 100 });
    await put('/v1/allowlist', { brands: ['Anker'] }, owner.apiKey);

    const [forOther] = await screen(other.apiKey, [TITLE], true);

    expect(forOther.risk).not.toBe('低');
    expect(forOther.top_conflict).toBe('Anker');
    expect(forOther.conflicts[0].allowlisted).toBeUndefined();
    expect(await readJson(await get('/v1/allowlist', other.apiKey))).toMatchObject({ brands: [] });
  });

  it.each([
    ['a string', { brands: 'Anker' }, 400, 'invalid_request'],
    ['an empty brand', { brands: [''] }, 400, 'invalid_request'],
    ['a brand of symbols only', { brands: ['™®'] }, 400, 'invalid_request'],
    ['a brand of 101 characters', { brands: ['x'.repeat(101)] }, 400, 'invalid_request'],
    ['no brands field', {}, 400, 'invalid_request'],
    ['501 brands', { brands: Array.from({ length: 501 }, (_, i) => `Brand ${i}`) }, 413, 'too_many_items'],
  ])('refuses %s with %i %s and keeps the list as it was', async (_label, body, status, code) => {
    const { apiKey } = await stack.openAccount();
    await put('/v1/allowlist', { brands: ['Anker'] }, apiKey);
    const response = await put('/v1/allowlist', body, apiKey);
    expect([response.status, (await readJson(response)).error.code]).toEqual([status, code]);
    expect((await readJson(await get('/v1/allowlist', apiKey))).brands).toEqual(['Anker']);
  });
});

describe('suspension and key rotation', () => {
  it('a suspended account is refused (403 account_suspended) on every route, and served again once resumed', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    await suspendAccount(stack.deps, { accountId, reason: 'chargeback', now: new Date() });

    for (const response of [
      await get('/v1/account', apiKey),
      await get('/v1/usage', apiKey),
      await post(`${server.url}/v1/test-charge`, { points: 1 }, bearer(apiKey)),
    ]) {
      expect([response.status, (await readJson(response)).error.code]).toEqual([403, 'account_suspended']);
    }
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(100);

    await resumeAccount(stack.deps, { accountId, reason: 'resolved', now: new Date() });
    expect((await get('/v1/account', apiKey)).status).toBe(200);
  });

  it('a rotated key works until its grace period ends, then reads as revoked; the new key works at once', async () => {
    const { accountId, apiKey, keyId } = await stack.openAccount({ points: 100 });
    const withGrace = await rotateApiKey(stack.deps, {
      accountId,
      keyId,
      graceMs: 60_000,
      envName: 'test',
      now: new Date(),
    });
    expect((await get('/v1/account', apiKey)).status).toBe(200);
    expect((await readJson(await get('/v1/account', withGrace.issued.apiKey))).key.id).toBe(withGrace.issued.keyId);

    const ended = await rotateApiKey(stack.deps, {
      accountId,
      keyId: withGrace.issued.keyId,
      graceMs: 0,
      envName: 'test',
      now: new Date(),
    });
    const response = await get('/v1/account', withGrace.issued.apiKey);
    expect([response.status, (await readJson(response)).error.code]).toEqual([401, 'invalid_api_key']);
    expect((await get('/v1/account', ended.issued.apiKey)).status).toBe(200);
  });
});
