/**
 * PUT /v1/watch and GET /v1/watch over real HTTP against DynamoDB Local: titles are screened when added and charged
 * one point each through the metered chain, logos are stored free, results are kept and listed a page at a time.
 */
import type { RunningServer } from '../../local/server';
import { createTestStack, type TestStack } from '../support/test-stack';
import { readJson, startTestServer } from '../support/test-server';
import { ingestWordMarks } from '../support/watch-marks';

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  await ingestWordMarks(stack, '2026-11-20', [{ serial: '99000001', mark: 'ZORVEXA', nice: [9] }]);
  server = await startTestServer(stack);
});
afterAll(async () => server?.close());

const send = (method: string, path: string, apiKey: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

describe('PUT /v1/watch', () => {
  it('screens each title now, charges one point per title (logos free), and keeps the results', async () => {
    const { apiKey } = await stack.openAccount({ tier: 'professional', points: 100 });

    const response = await send('PUT', '/v1/watch', apiKey, {
      items: [
        { id: 'SKU-2', title: 'Zorvexa wireless earbuds with charging case', nice: '9' },
        { id: 'SKU-1', title: 'Bamboo cutting board set' },
      ],
      logos: [{ id: 'LOGO-1', image_url: 'https://example.com/logo.png' }],
    });

    expect(response.status).toBe(200);
    expect([response.headers.get('x-points-cost'), response.headers.get('x-points-balance')]).toEqual(['2', '98']);
    const body = await readJson(response);
    expect(body).toMatchObject({ titles: 2, logos: 1, data_as_of: '2026-11-20' });
    expect(body.results.map((r: { id: string }) => r.id)).toEqual(['SKU-2', 'SKU-1']);
    expect(body.results[0]).toMatchObject({ top_conflict: 'ZORVEXA' });
    expect(body.results[0].risk).not.toBe('低');
    expect(body.results[1]).toEqual({ id: 'SKU-1', risk: '低', tro_hit: false, top_conflict: '' });

    const listed = await readJson(await send('GET', '/v1/watch', apiKey));
    expect(listed.count).toBe(3);
    expect(listed.next_cursor).toBeNull();
    expect(listed.items.map((i: { id: string }) => i.id)).toEqual(['LOGO-1', 'SKU-1', 'SKU-2']);
    expect(listed.items[0]).toMatchObject({ kind: 'logo', image_url: 'https://example.com/logo.png' });
    expect(listed.items[0].risk).toBeUndefined();
    expect(listed.items[2]).toMatchObject({
      kind: 'title',
      title: 'Zorvexa wireless earbuds with charging case',
      nice: '09',
      risk: body.results[0].risk,
      top_conflict: 'ZORVEXA',
      data_as_of: '2026-11-20',
    });
  });

  it('replaces an item added again under the same id, and other accounts never see it', async () => {
    const { apiKey } = await stack.openAccount({ tier: 'professional', points: 100 });
    const other = await stack.openAccount({ tier: 'professional', points: 100 });
    await send('PUT', '/v1/watch', apiKey, { items: [{ id: 'A', title: 'Zorvexa phone case', nice: '9' }] });

    await send('PUT', '/v1/watch', apiKey, { items: [{ id: 'A', title: 'Plain phone case', nice: '9' }] });

    const listed = await readJson(await send('GET', '/v1/watch', apiKey));
    expect(listed.items).toEqual([expect.objectContaining({ id: 'A', title: 'Plain phone case', risk: '低' })]);
    expect((await readJson(await send('GET', '/v1/watch', other.apiKey))).items).toEqual([]);
  });

  it('pages with an opaque cursor until next_cursor is null', async () => {
    const { apiKey } = await stack.openAccount({ tier: 'professional', points: 100 });
    const items = Array.from({ length: 7 }, (_, i) => ({ id: `P-${i}`, title: `Garden hose number ${i}` }));
    await send('PUT', '/v1/watch', apiKey, { items });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await readJson(await send('GET', `/v1/watch${query}`, apiKey));
      seen.push(...page.items.map((i: { id: string }) => i.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);

    expect(seen).toEqual(items.map((i) => i.id));
    expect(pages).toBe(3);
    const refused = await send('GET', '/v1/watch?cursor=not-a-cursor', apiKey);
    expect(refused.status).toBe(400);
    expect((await readJson(refused)).error.code).toBe('invalid_request');
  });

  it('refuses before any charge: more than 10,000 titles (413), repeated ids, a logo that is not http(s), a low tier', async () => {
    const { apiKey, accountId } = await stack.openAccount({ tier: 'professional', points: 100 });
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ id: `T${i}`, title: 'x' }));

    const responses = await Promise.all([
      send('PUT', '/v1/watch', apiKey, { items: tooMany }),
      send('PUT', '/v1/watch', apiKey, {
        items: [
          { id: 'D', title: 'a' },
          { id: 'D', title: 'b' },
        ],
      }),
      send('PUT', '/v1/watch', apiKey, { logos: [{ id: 'L', image_url: 'file:///etc/passwd' }] }),
      send('PUT', '/v1/watch', apiKey, {}),
    ]);
    const basic = await stack.openAccount({ tier: 'basic', points: 100 });
    const lowTier = await send('PUT', '/v1/watch', basic.apiKey, { items: [{ id: 'A', title: 'a' }] });

    expect(responses.map((r) => r.status)).toEqual([413, 400, 400, 400]);
    expect((await readJson(responses[0]!)).error.code).toBe('too_many_items');
    expect(lowTier.status).toBe(403);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))?.points).toBe(100);
    expect((await readJson(await send('GET', '/v1/watch', apiKey))).items).toEqual([]);
  });
});

describe('DELETE /v1/watch/{id}', () => {
  it('removes one item by its percent-encoded id, free on every tier; a second delete answers deleted: false', async () => {
    const { apiKey } = await stack.openAccount({ tier: 'professional', points: 100 });
    await send('PUT', '/v1/watch', apiKey, {
      items: [
        { id: 'SKU/1?a#b', title: 'Zorvexa phone case', nice: '9' },
        { id: 'SKU-2', title: 'Plain phone case' },
      ],
    });

    const response = await send('DELETE', `/v1/watch/${encodeURIComponent('SKU/1?a#b')}`, apiKey);

    expect(response.status).toBe(200);
    expect(response.headers.get('x-points-cost')).toBeNull();
    expect(await readJson(response)).toEqual({ id: 'SKU/1?a#b', deleted: true });
    const listed = await readJson(await send('GET', '/v1/watch', apiKey));
    expect(listed.items.map((i: { id: string }) => i.id)).toEqual(['SKU-2']);
    const again = await send('DELETE', `/v1/watch/${encodeURIComponent('SKU/1?a#b')}`, apiKey);
    expect([again.status, await readJson(again)]).toEqual([200, { id: 'SKU/1?a#b', deleted: false }]);
  });

  it("never touches another account's item of the same id", async () => {
    const owner = await stack.openAccount({ tier: 'professional', points: 100 });
    const other = await stack.openAccount({ tier: 'free', points: 0 });
    await send('PUT', '/v1/watch', owner.apiKey, { items: [{ id: 'SHARED', title: 'Plain phone case' }] });

    const response = await send('DELETE', '/v1/watch/SHARED', other.apiKey);

    expect(await readJson(response)).toEqual({ id: 'SHARED', deleted: false });
    expect((await readJson(await send('GET', '/v1/watch', owner.apiKey))).count).toBe(1);
  });

  it('refuses an id that is not printable ASCII (400), asks for a key (401), and 405s other methods on the path', async () => {
    const { apiKey } = await stack.openAccount({ tier: 'professional', points: 100 });

    const bad = await send('DELETE', `/v1/watch/${encodeURIComponent('has space')}`, apiKey);
    const unkeyed = await fetch(`${server.url}/v1/watch/SKU-1`, { method: 'DELETE' });
    const wrongMethod = await send('GET', '/v1/watch/SKU-1', apiKey);
    const tooDeep = await send('DELETE', '/v1/watch/SKU-1/more', apiKey);

    expect([bad.status, (await readJson(bad)).error.code]).toEqual([400, 'invalid_request']);
    expect(unkeyed.status).toBe(401);
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'DELETE']);
    expect(tooDeep.status).toBe(404);
  });
});
