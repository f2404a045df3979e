/**
 * POST /v1/batch-screen end to end over real HTTP: the real handler, the real screening engine and the real stores on
 * DynamoDB Local, with a small corpus loaded through the real ingest (test/support/batch-screen-stack.ts).
 *
 * Shown here: titles in any script (emoji, right-to-left text, invisible characters, mixed Chinese and English); `nice` as a number or a string; the shape of a result with and without `detail`.
 */
import {
  GENERIC_TITLE,
  NIKE_TITLE,
  openAccount,
  screen,
  screenTitle,
  screenTitles,
  useBatchScreenServer,
} from '../support/batch-screen-stack';
import type { ScreeningResult } from '../../shared/screening/title-conflicts';
import { readJson } from '../support/test-server';

useBatchScreenServer();

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

  it.each(nikeTitles)(
    '%s: still Nike, 高, on the TRO list, and the name is the title exactly as sent',
    async (_name, title) => {
      const result = await screenTitle(title);

      expect(result).toEqual({ name: title, risk: '高', tro_hit: true, top_conflict: 'Nike' });
    },
  );

  it('invisible characters cannot hide a longer brand either (one between each of its 7 letters)', async () => {
    const title = `${[...'Stanley'].join('\u200b')} tumbler 40 oz`;

    const result = await screenTitle(title);

    expect(result.name).toBe(title);
    expect(result.risk).not.toBe('低');
    expect(result.top_conflict).toBe('Stanley');
  });

  it('the brand word behind a zero-width space is reported as the seller sees it', async () => {
    const result = await screenTitle('Ni\u200bke running shoes', { detail: true });

    expect(result.brand_words).toEqual(['Nike']);
    expect(result.conflicts?.[0]).toMatchObject({ mark: 'Nike', words: ['Nike'] });
  });

  it.each([
    ['emoji only', '👟🔥✨'],
    ['Arabic only', 'حذاء رياضي للجري'],
    ['Hebrew only', 'נעלי ריצה לגברים'],
    ['a zero-width space inside a generic word', 'stainless steel ap\u200bple slicer'],
  ])('%s: 低 with no conflict', async (_name, title) => {
    const result = await screenTitle(title);

    expect(result).toEqual({ name: title, risk: '低', tro_hit: false, top_conflict: '' });
  });

  it('mixed Chinese and English: 高 on the TRO list, with the US mark and the CN mark both found', async () => {
    const title = '耐克 Nike 运动鞋 running shoes';

    const result = await screenTitle(title, { detail: true });

    expect(result).toMatchObject({ name: title, risk: '高', tro_hit: true, top_conflict: 'Nike' });
    const serials = (result.conflicts ?? []).map((c) => c.serial);
    expect(serials).toContain('US-E2E-NIKE');
    expect(serials.some((s: string) => s.startsWith('CN-E2E-'))).toBe(true);
    expect(result.brand_words).toEqual(expect.arrayContaining(['Nike']));
    expect((result.brand_words ?? []).join('')).toContain('耐');
  });

  it('Chinese only: the CN mark is found and its NIKE part puts it on the TRO list', async () => {
    const result = await screenTitle('耐克运动鞋 男款');

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
    const { apiKey } = await openAccount({ points: 100 });
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
    const { apiKey } = await openAccount({ points: 100 });

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
    const [nike, generic] = (await screenTitles([NIKE_TITLE, GENERIC_TITLE], { detail: true })) as [
      ScreeningResult,
      ScreeningResult,
    ];

    expect(nike).toMatchObject({
      name: NIKE_TITLE,
      risk: '高',
      tro_hit: true,
      top_conflict: 'Nike',
      brand_words: ['Nike'],
    });
    expect(nike.conflicts?.length).toBeGreaterThanOrEqual(1);
    expect(nike.conflicts?.[0]).toMatchObject({
      mark: 'Nike',
      serial: 'US-E2E-NIKE',
      nice: '25,28',
      is_live: 1,
      match: 'exact',
      words: ['Nike'],
      tro: true,
      reason: expect.stringMatching(/\S/),
    });
    for (const conflict of nike.conflicts ?? []) {
      expect(Object.keys(conflict)).toEqual(
        expect.arrayContaining(['mark', 'serial', 'nice', 'is_live', 'match', 'words', 'tro', 'reason']),
      );
      expect(['exact', 'transliteration', 'fuzzy', 'phonetic']).toContain(conflict.match);
      expect([0, 1]).toContain(conflict.is_live);
    }
    expect(generic).toMatchObject({ risk: '低', top_conflict: '', brand_words: [], conflicts: [] });
  });

  it('without detail there is neither brand_words nor conflicts', async () => {
    const result = await screenTitle(NIKE_TITLE);

    expect(result).not.toHaveProperty('brand_words');
    expect(result).not.toHaveProperty('conflicts');
  });
});
