/**
 * POST /v1/batch-screen end to end over real HTTP: the real handler, the real screening engine and the real stores on
 * DynamoDB Local, with a small corpus loaded through the real ingest (test/support/batch-screen-stack.ts).
 *
 * Shown here: a full 1,000-item batch answered in order and charged 1,000 points; the charge equal to the number of items; a balance too low refused with nothing charged; an idempotent replay charged once.
 */
import {
  GENERIC_TITLE,
  NIKE_TITLE,
  RISKS,
  US_BATCH_DATE,
  balanceOf,
  chargesOf,
  items,
  openAccount,
  screen,
  useBatchScreenServer,
} from '../support/batch-screen-stack';
import { readJson } from '../support/test-server';

useBatchScreenServer();

describe('a batch of 1,000 items', () => {
  const pool = [
    NIKE_TITLE,
    GENERIC_TITLE,
    'Wireless earbuds with charging case',
    '耐克 Nike 运动鞋 running shoes',
    '👟 breathable mesh sneakers',
    'حذاء رياضي للجري',
    'Cotton crew socks 6 pairs',
  ];
  const titles = Array.from({ length: 1000 }, (_, i) => `${pool[i % pool.length]} #${i}`);

  it('answers every item in order, charges 1,000 points once and dates the answer by the latest complete US batch', async () => {
    const { accountId, apiKey } = await openAccount({ points: 1500 });

    const response = await screen(apiKey, { items: items(...titles) });
    const body = await readJson(response);

    expect(response.status).toBe(200);
    expect(body.count).toBe(1000);
    expect(body.results).toHaveLength(1000);
    const misplaced = titles.map((title, i) => (body.results[i].name === title ? -1 : i)).filter((i) => i >= 0);
    expect(misplaced).toEqual([]);
    expect(body.data_as_of).toBe(US_BATCH_DATE);
    expect(response.headers.get('x-points-cost')).toBe('1000');
    expect(response.headers.get('x-points-balance')).toBe('500');
    expect(await balanceOf(accountId)).toBe(500);
    expect(await chargesOf(accountId)).toEqual([
      expect.objectContaining({ operation: 'batch-screen', points: 1000, units: 1000, status: 'charged' }),
    ]);
  });

  it('each result is well formed and answers its own item', async () => {
    const { apiKey } = await openAccount({ points: 1000 });

    const body = await readJson(await screen(apiKey, { items: items(...titles) }));

    for (const result of body.results) {
      expect(Object.keys(result).sort()).toEqual(['name', 'risk', 'top_conflict', 'tro_hit']);
      expect(RISKS).toContain(result.risk);
      expect(typeof result.tro_hit).toBe('boolean');
      expect(typeof result.top_conflict).toBe('string');
      expect(result.top_conflict === '').toBe(result.risk === '低');
    }
    const answers = (prefix: string) => body.results.filter((r: { name: string }) => r.name.startsWith(prefix));
    expect(answers(NIKE_TITLE).length).toBeGreaterThan(100);
    for (const r of answers(NIKE_TITLE)) expect(r).toMatchObject({ risk: '高', tro_hit: true, top_conflict: 'Nike' });
    for (const r of answers(GENERIC_TITLE)) expect(r).toMatchObject({ risk: '低', tro_hit: false, top_conflict: '' });
  });
});

describe('the charge', () => {
  it.each([1, 7, 250])('%i items: charged that many points', async (n) => {
    const { accountId, apiKey } = await openAccount({ points: 1000 });

    const response = await screen(apiKey, {
      items: items(...Array.from({ length: n }, (_, i) => `${NIKE_TITLE} size ${i}`)),
    });

    expect(response.status).toBe(200);
    expect((await readJson(response)).count).toBe(n);
    expect(response.headers.get('x-points-cost')).toBe(String(n));
    expect(response.headers.get('x-points-balance')).toBe(String(1000 - n));
    expect(await balanceOf(accountId)).toBe(1000 - n);
    expect(await chargesOf(accountId)).toEqual([expect.objectContaining({ points: n, units: n, status: 'charged' })]);
  });

  it('a balance below the number of items is a 402 and nothing is screened or charged', async () => {
    const { accountId, apiKey } = await openAccount({ points: 2 });

    const response = await screen(apiKey, { items: items(NIKE_TITLE, GENERIC_TITLE, 'Cotton socks') });
    const answer = await readJson(response);

    expect(response.status).toBe(402);
    expect(answer.error).toMatchObject({ code: 'insufficient_points', details: { balance: 2, cost: 3 } });
    expect(await balanceOf(accountId)).toBe(2);
    expect(await chargesOf(accountId)).toEqual([]);
  });

  it('an Idempotency-Key replay returns the same body and is not charged again', async () => {
    const { accountId, apiKey } = await openAccount({ points: 100 });
    const request = { items: items(NIKE_TITLE, GENERIC_TITLE, '耐克 Nike 运动鞋 running shoes'), detail: true };
    const headers = { 'Idempotency-Key': 'batch-screen-e2e-replay-1' };

    const first = await screen(apiKey, request, headers);
    const firstBody = await first.text();
    const second = await screen(apiKey, request, headers);
    const secondBody = await second.text();

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(secondBody).toBe(firstBody);
    expect(JSON.parse(secondBody).count).toBe(3);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('x-points-cost')).toBe('0');
    expect(second.headers.get('x-points-balance')).toBe('97');
    expect(await balanceOf(accountId)).toBe(97);
    expect(await chargesOf(accountId)).toHaveLength(1);
  });
});
