/**
 * POST /v1/batch-screen end to end over real HTTP: the real handler, the real screening engine and the real stores on
 * DynamoDB Local, with a small corpus loaded through the real ingest (US marks, a CN batch, a TRO list).
 *
 * Shown here: a full 1,000-item batch answered in order and charged 1,000 points; every refusal (empty, too many,
 * malformed items, bad Nice classes) named and never charged; titles in any script (emoji, right-to-left text,
 * invisible characters, mixed Chinese and English); `nice` as a number or a string; the shape of a result with and
 * without `detail`; the charge equal to the number of items; an idempotent replay charged once.
 */
import { Readable } from 'node:stream';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch, type IngestRequest, type IngestStores } from '../../shared/ingest/ingest-batch';
import type { RunningServer } from '../../local/server';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';

/** The date of the latest complete US marks batch: what every answer must give as data_as_of. */
const US_BATCH_DATE = '2026-11-20';

const US_MARKS = [
  { serial: 'US-E2E-NIKE', mark: 'Nike', nice: [25, 28], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-ADIDAS', mark: 'adidas', nice: [25], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-APPLE', mark: 'Apple', nice: [9], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-IPHONE', mark: 'iPhone', nice: [9], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-COACH', mark: 'Coach', nice: [18, 25], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-STANLEY', mark: 'Stanley', nice: [8, 21], is_live: true, drawing_kind: 'word' },
];
/** An older complete US batch: its date must not be the answer's data_as_of. */
const OLDER_US_MARKS = [{ serial: 'US-E2E-OLD', mark: 'Quillorbant', nice: [3], is_live: true }];
const CN_MARKS = [
  { serial: 'CN-E2E-NAIKE', mark: '耐克', transliteration: 'nai ke', nice: [25], is_live: true, drawing_kind: 'word' },
  { serial: 'CN-E2E-NAIKE-NIKE', mark: '耐克 NIKE', transliteration: 'nai ke', nice: [25, 28], is_live: true, drawing_kind: 'word' },
];
const TRO_CSV = [
  'brand,plaintiff,case_no,court,filed,source,checked_against_docket',
  'Nike,Nike Inc.,1:24-cv-00001,N.D. Ill.,2024-01-02,e2e fixture,no',
].join('\n');

const RISKS = ['高', '中', '低'];
const NIKE_TITLE = 'Nike running shoes';
const GENERIC_TITLE = 'stainless steel apple slicer';

let stack: TestStack;
let server: RunningServer;
let endpoint: string;

const jsonl = (records: readonly object[]) => Readable.from([records.map((r) => JSON.stringify(r)).join('\n')]);

async function loadCorpus(stores: IngestStores): Promise<void> {
  const base = { holder: 'e2e-batch-screen', source: 'e2e' } as const;
  const batches: IngestRequest[] = [
    { ...base, kind: 'marks-jsonl', market: 'US', input: jsonl(OLDER_US_MARKS), batchDate: '2026-11-10', source: 'e2e-older' },
    { ...base, kind: 'marks-jsonl', market: 'US', input: jsonl(US_MARKS), batchDate: US_BATCH_DATE },
    {
      ...base,
      kind: 'marks-jsonl',
      market: 'CN',
      input: jsonl(CN_MARKS),
      batchDate: '2026-11-22',
      coverage: { country: 'CN', source: 'e2e', partial: true, coverage_note: 'e2e' },
    },
    { ...base, kind: 'tro', market: 'US', input: Readable.from([TRO_CSV]), batchDate: '2026-11-25', source: 'e2e-tro' },
  ];
  for (const batch of batches) {
    const summary = await ingestBatch(stores, batch);
    if (!summary.complete || summary.rejected > 0) throw new Error(`the e2e corpus did not load: ${JSON.stringify(summary)}`);
  }
  // A later US batch that breaks off: never complete, so never the data date.
  const broken = new Readable({
    read() {
      this.destroy(new Error('the file broke off'));
    },
  });
  const summary = await ingestBatch(stores, { ...base, kind: 'marks-jsonl', market: 'US', input: broken, batchDate: '2026-11-28', source: 'e2e-broken' });
  if (summary.complete) throw new Error('the broken batch should not be complete');
}

beforeAll(async () => {
  stack = await createTestStack();
  await loadCorpus(buildDataStores(stack.config));
  server = await startTestServer(stack);
  endpoint = `${server.url}/v1/batch-screen`;
});
afterAll(async () => server?.close());

const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
const balanceOf = async (accountId: string) => (await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points;
const chargesOf = async (accountId: string) => (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge');
const screen = (apiKey: string, body: unknown, headers: Record<string, string> = {}) => post(endpoint, body, { ...bearer(apiKey), ...headers });
const items = (...titles: string[]) => titles.map((title) => ({ title }));

/** Screens titles on a fresh account and returns the results (asserting the call succeeded). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function screenTitles(titles: string[], options: { detail?: boolean } = {}): Promise<any[]> {
  const { apiKey } = await stack.openAccount({ points: 1000 });
  const response = await screen(apiKey, { items: items(...titles), ...(options.detail ? { detail: true } : {}) });
  const body = await readJson(response);
  expect(response.status).toBe(200);
  return body.results;
}

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
    const { accountId, apiKey } = await stack.openAccount({ points: 1500 });

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
    expect(await chargesOf(accountId)).toEqual([expect.objectContaining({ operation: 'batch-screen', points: 1000, units: 1000, status: 'charged' })]);
  });

  it('each result is well formed and answers its own item', async () => {
    const { apiKey } = await stack.openAccount({ points: 1000 });

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

describe('refused requests are named and never charged', () => {
  const fieldsOf = (body: { error: { details?: { issues?: { field: string }[] } } }) => (body.error.details?.issues ?? []).map((i) => i.field);
  const valid = (n: number) => items(...Array.from({ length: n }, (_, i) => `Cotton socks ${i}`));

  const cases: [string, unknown, number, string, string[] | undefined][] = [
    ['empty items', { items: [] }, 400, 'invalid_request', ['items']],
    ['no items field', {}, 400, 'invalid_request', ['items']],
    ['items not an array', { items: 'Nike shoes' }, 400, 'invalid_request', ['items']],
    ['1,001 items', { items: valid(1001) }, 413, 'too_many_items', undefined],
    ['a non-string title at index 3', { items: [...valid(3), { title: 42 }, ...valid(2)] }, 400, 'invalid_request', ['items[3].title']],
    ['a 10 KB title', { items: [{ title: 'x'.repeat(10 * 1024) }] }, 400, 'invalid_request', ['items[0].title']],
    ['a 501-character title', { items: [{ title: 'é'.repeat(501) }] }, 400, 'invalid_request', ['items[0].title']],
    ['a blank title', { items: [{ title: '   ' }] }, 400, 'invalid_request', ['items[0].title']],
    ['nice 0', { items: [{ title: NIKE_TITLE, nice: 0 }] }, 400, 'invalid_request', ['items[0].nice']],
    ['nice 46', { items: [{ title: NIKE_TITLE, nice: 46 }] }, 400, 'invalid_request', ['items[0].nice']],
    ['nice "abc"', { items: [{ title: NIKE_TITLE, nice: 'abc' }] }, 400, 'invalid_request', ['items[0].nice']],
    ['detail not a boolean', { items: valid(1), detail: 'yes' }, 400, 'invalid_request', ['detail']],
  ];

  it.each(cases)('%s', async (_name, body, status, code, fields) => {
    const { accountId, apiKey } = await stack.openAccount({ points: 5000 });

    const response = await screen(apiKey, body);
    const answer = await readJson(response);

    expect(response.status).toBe(status);
    expect(answer.error.code).toBe(code);
    expect(answer.error.request_id).toBe(response.headers.get('x-request-id'));
    if (fields) expect(fieldsOf(answer)).toEqual(fields);
    expect(response.headers.get('x-points-cost')).toBeNull();
    expect(await balanceOf(accountId)).toBe(5000);
    expect(await chargesOf(accountId)).toEqual([]);
  });

  it('413 says the limit and the count', async () => {
    const { apiKey } = await stack.openAccount({ points: 5000 });

    const answer = await readJson(await screen(apiKey, { items: valid(1001) }));

    expect(answer.error.details).toMatchObject({ limit: 1000, actual: 1001 });
  });

  it('names every malformed item of a batch, and only those', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    const body = {
      items: [
        { title: 'Cotton socks' },
        { title: null },
        {},
        { title: 'Wool scarf', nice: 46 },
        'Nike shoes',
        { title: 'y'.repeat(10 * 1024) },
        { title: 'Leather belt', nice: '09' },
        { title: ['Nike'] },
      ],
    };

    const response = await screen(apiKey, body);
    const answer = await readJson(response);

    expect(response.status).toBe(400);
    expect(answer.error.code).toBe('invalid_request');
    expect(fieldsOf(answer).sort()).toEqual(['items[1].title', 'items[2].title', 'items[3].nice', 'items[4]', 'items[5].title', 'items[7].title'].sort());
    expect(await balanceOf(accountId)).toBe(100);
    expect(await chargesOf(accountId)).toEqual([]);
  });

  it('a title of 500 code points (1,000 UTF-16 units of emoji) is accepted and charged 1 point', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 10 });

    const response = await screen(apiKey, { items: [{ title: '👟'.repeat(500) }] });
    const body = await readJson(response);

    expect(response.status).toBe(200);
    expect(body.results[0]).toMatchObject({ name: '👟'.repeat(500), risk: '低', tro_hit: false, top_conflict: '' });
    expect(await balanceOf(accountId)).toBe(9);
  });
});

describe('titles in any script', () => {
  const nikeTitles: [string, string][] = [
    ['emoji around the brand', '👟 Nike running shoes 🔥'],
    ['Arabic around the brand', 'حذاء رياضي Nike للجري'],
    ['Hebrew around the brand', 'נעלי ריצה Nike'],
    ['a right-to-left override before the brand', '\u202eNike running shoes'],
    ['a zero-width space inside the brand', 'Ni\u200bke running shoes'],
    ['a zero-width non-joiner inside the brand', 'Ni\u200cke running shoes'],
    ['a zero-width joiner inside the brand', 'Ni\u200dke running shoes'],
    ['a word joiner inside the brand', 'N\u2060ike running shoes'],
    ['a soft hyphen inside the brand', 'Ni\u00adke running shoes'],
    ['a byte order mark before the brand', '\ufeffNike running shoes'],
    ['zero-width spaces between every letter', 'N\u200bi\u200bk\u200be running shoes'],
  ];

  it.each(nikeTitles)('%s: still Nike, 高, on the TRO list, and the name is the title exactly as sent', async (_name, title) => {
    const [result] = await screenTitles([title]);

    expect(result).toEqual({ name: title, risk: '高', tro_hit: true, top_conflict: 'Nike' });
  });

  it('invisible characters cannot hide a longer brand either (one between each of its 7 letters)', async () => {
    const title = `${[...'Stanley'].join('\u200b')} tumbler 40 oz`;

    const [result] = await screenTitles([title]);

    expect(result.name).toBe(title);
    expect(result.risk).not.toBe('低');
    expect(result.top_conflict).toBe('Stanley');
  });

  it('the brand word behind a zero-width space is reported as the seller sees it', async () => {
    const [result] = await screenTitles(['Ni\u200bke running shoes'], { detail: true });

    expect(result.brand_words).toEqual(['Nike']);
    expect(result.conflicts[0]).toMatchObject({ mark: 'Nike', words: ['Nike'] });
  });

  it.each([
    ['emoji only', '👟🔥✨'],
    ['Arabic only', 'حذاء رياضي للجري'],
    ['Hebrew only', 'נעלי ריצה לגברים'],
    ['a zero-width space inside a generic word', 'stainless steel ap\u200bple slicer'],
  ])('%s: 低 with no conflict', async (_name, title) => {
    const [result] = await screenTitles([title]);

    expect(result).toEqual({ name: title, risk: '低', tro_hit: false, top_conflict: '' });
  });

  it('mixed Chinese and English: 高 on the TRO list, with the US mark and the CN mark both found', async () => {
    const title = '耐克 Nike 运动鞋 running shoes';

    const [result] = await screenTitles([title], { detail: true });

    expect(result).toMatchObject({ name: title, risk: '高', tro_hit: true, top_conflict: 'Nike' });
    const serials = result.conflicts.map((c: { serial: string }) => c.serial);
    expect(serials).toContain('US-E2E-NIKE');
    expect(serials.some((s: string) => s.startsWith('CN-E2E-'))).toBe(true);
    expect(result.brand_words).toEqual(expect.arrayContaining(['Nike']));
    expect(result.brand_words.join('')).toContain('耐');
  });

  it('Chinese only: the CN mark is found and its NIKE part puts it on the TRO list', async () => {
    const [result] = await screenTitles(['耐克运动鞋 男款']);

    expect(result.risk).toBe('高');
    expect(result.tro_hit).toBe(true);
    expect(result.top_conflict).toContain('耐克');
  });
});

describe('nice as a number or a string', () => {
  it.each([
    ['25 and "25"', 25, '25'],
    ['9 and "09"', 9, '09'],
    ['"9" and "09"', '9', '09'],
  ])('%s are accepted and give the same answer', async (_name, asGiven, asString) => {
    const { apiKey } = await stack.openAccount({ points: 100 });
    const titles = [NIKE_TITLE, 'Wireless earbuds for iPhone', GENERIC_TITLE];

    const first = await screen(apiKey, { items: titles.map((title) => ({ title, nice: asGiven })), detail: true });
    const second = await screen(apiKey, { items: titles.map((title) => ({ title, nice: asString })), detail: true });

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const [a, b] = [await readJson(first), await readJson(second)];
    expect(a.results).toHaveLength(3);
    expect(b.results).toEqual(a.results);
  });

  it('an item with a class and an item without can share a batch', async () => {
    const { apiKey } = await stack.openAccount({ points: 100 });

    const response = await screen(apiKey, { items: [{ title: NIKE_TITLE, nice: '25' }, { title: NIKE_TITLE }] });
    const body = await readJson(response);

    expect(response.status).toBe(200);
    expect(body.results.map((r: { risk: string; top_conflict: string }) => [r.risk, r.top_conflict])).toEqual([
      ['高', 'Nike'],
      ['高', 'Nike'],
    ]);
  });
});

describe('the answer for one title', () => {
  it('a known TRO brand: 高, tro_hit, top_conflict "Nike"; a generic use of a mark word: 低, no conflict', async () => {
    const results = await screenTitles([NIKE_TITLE, GENERIC_TITLE]);

    expect(results).toEqual([
      { name: NIKE_TITLE, risk: '高', tro_hit: true, top_conflict: 'Nike' },
      { name: GENERIC_TITLE, risk: '低', tro_hit: false, top_conflict: '' },
    ]);
  });

  it('"detail": true adds brand_words and each conflict with mark, serial, nice, is_live, match, words, tro and reason', async () => {
    const [nike, generic] = await screenTitles([NIKE_TITLE, GENERIC_TITLE], { detail: true });

    expect(nike).toMatchObject({ name: NIKE_TITLE, risk: '高', tro_hit: true, top_conflict: 'Nike', brand_words: ['Nike'] });
    expect(nike.conflicts.length).toBeGreaterThanOrEqual(1);
    expect(nike.conflicts[0]).toMatchObject({
      mark: 'Nike',
      serial: 'US-E2E-NIKE',
      nice: '25,28',
      is_live: 1,
      match: 'exact',
      words: ['Nike'],
      tro: true,
      reason: expect.stringMatching(/\S/),
    });
    for (const conflict of nike.conflicts) {
      expect(Object.keys(conflict)).toEqual(expect.arrayContaining(['mark', 'serial', 'nice', 'is_live', 'match', 'words', 'tro', 'reason']));
      expect(['exact', 'transliteration', 'fuzzy', 'phonetic']).toContain(conflict.match);
      expect([0, 1]).toContain(conflict.is_live);
    }
    expect(generic).toMatchObject({ risk: '低', top_conflict: '', brand_words: [], conflicts: [] });
  });

  it('without detail there is neither brand_words nor conflicts', async () => {
    const [result] = await screenTitles([NIKE_TITLE]);

    expect(result).not.toHaveProperty('brand_words');
    expect(result).not.toHaveProperty('conflicts');
  });
});

describe('the charge', () => {
  it.each([1, 7, 250])('%i items: charged that many points', async (n) => {
    const { accountId, apiKey } = await stack.openAccount({ points: 1000 });

    const response = await screen(apiKey, { items: items(...Array.from({ length: n }, (_, i) => `${NIKE_TITLE} size ${i}`)) });

    expect(response.status).toBe(200);
    expect((await readJson(response)).count).toBe(n);
    expect(response.headers.get('x-points-cost')).toBe(String(n));
    expect(response.headers.get('x-points-balance')).toBe(String(1000 - n));
    expect(await balanceOf(accountId)).toBe(1000 - n);
    expect(await chargesOf(accountId)).toEqual([expect.objectContaining({ points: n, units: n, status: 'charged' })]);
  });

  it('a balance below the number of items is a 402 and nothing is screened or charged', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 2 });

    const response = await screen(apiKey, { items: items(NIKE_TITLE, GENERIC_TITLE, 'Cotton socks') });
    const answer = await readJson(response);

    expect(response.status).toBe(402);
    expect(answer.error).toMatchObject({ code: 'insufficient_points', details: { balance: 2, cost: 3 } });
    expect(await balanceOf(accountId)).toBe(2);
    expect(await chargesOf(accountId)).toEqual([]);
  });

  it('an Idempotency-Key replay returns the same body and is not charged again', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
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
