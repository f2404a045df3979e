/**
 * The register-scale corpus generator (builders/register-scale-corpus.ts) on small in-test word lists: the same seed
 * gives the same lines, every line is a valid marks-JSONL line for the real parser, about 45% are dead with a dead
 * USPTO status code, --marks caps the total (sampling every source below the natural total, filling with coined
 * names and pairs above it), serials are unique, and a word's own goods class comes first some of the time.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CLASS_MIX,
  type CorpusLine,
  dictionaryWordsOf,
  emptySummary,
  misspell,
  proportionalQuotas,
  type RegisterScaleInputs,
  type RegisterScaleOptions,
  registerScaleLines,
  SOURCES,
  STATUS_CODES,
  wordnetLemmasOf,
} from '../../../builders/register-scale-corpus';
import { drawFrom, seededRandom } from '../../../builders/synthetic-uspto/random';
import { parseMarkJsonl } from '../../../shared/marks/cn-jsonl';
import type { ParsedMark } from '../../../shared/marks/mark-record';

const INPUTS: RegisterScaleInputs = {
  dictionaryWords: [
    'ink',
    'memory',
    'cushions',
    'harbor',
    'swift',
    'peak',
    'blue',
    'lantern',
    'orchid',
    'granite',
    'velvet',
    'comet',
    'meadow',
    'falcon',
    'ember',
    'willow',
    'summit',
    'coral',
    'thunder',
    'maple',
  ],
  wordnetLemmas: ['sewing machine', 'hot dog', 'ice cream', 'blue cheese', 'tennis ball', 'paper clip', 'sea salt'],
  brands: ['Nike', 'Adidas', 'Apple', 'Coach', '13 Fishing', 'Band-Aid'],
  commonWords: ['blue', 'harbor', 'swift', 'peak', 'river', 'stone', 'golden', 'north', 'light', 'forest'],
};

function run(options: Partial<RegisterScaleOptions> & { marks: number }) {
  const summary = emptySummary();
  const lines = [
    ...registerScaleLines(INPUTS, { seed: 1, naturalCoined: 150, naturalPairs: 150, ...options }, summary),
  ];
  return { lines, summary };
}

async function parsed(lines: readonly CorpusLine[]): Promise<ParsedMark[]> {
  const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  const out: ParsedMark[] = [];
  for await (const result of parseMarkJsonl(Readable.from([Buffer.from(text)]), {
    market: 'US',
    source: 'register-scale',
    batchDate: '2026-11-28',
  }))
    out.push(result);
  return out;
}

/** The Live/Dead column of the shipped USPTO status code table. */
function liveDeadOf(): Map<string, string> {
  const csv = readFileSync(path.join(__dirname, '../../../data/uspto/code-tables/status_codes.csv'), 'utf8');
  const map = new Map<string, string>();
  for (const line of csv.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const code = line.slice(0, line.indexOf(','));
    map.set(code, line.slice(line.lastIndexOf(',') + 1).trim());
  }
  return map;
}

describe('register-scale corpus', () => {
  it('gives the same lines for the same seed, other lines for another seed', () => {
    const first = run({ marks: 500 }).lines;
    const again = run({ marks: 500 }).lines;
    const other = run({ marks: 500, seed: 2 }).lines;
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(first));
  });

  it('writes lines the marks-JSONL parser takes, each once, as US records', async () => {
    const { lines } = run({ marks: 2000 });
    const results = await parsed(lines);
    expect(results).toHaveLength(2000);
    const refused = results.filter((result) => !result.ok);
    expect(refused).toEqual([]);
    for (const result of results) {
      if (!result.ok) continue;
      expect(result.duplicate).toBe(false);
      expect(result.record.market).toBe('US');
      expect(result.record.niceClasses.length).toBeGreaterThanOrEqual(1);
      expect(result.record.niceClasses.length).toBeLessThanOrEqual(4);
      expect(result.record.owner).toBeDefined();
    }
  });

  it('makes about 45% of the marks dead, with dead USPTO codes, and live exactly the registered ones', () => {
    const { lines, summary } = run({ marks: 4000 });
    const table = liveDeadOf();
    const dead = lines.filter((line) => line.status_category === 'dead');
    expect(dead.length / lines.length).toBeGreaterThan(0.42);
    expect(dead.length / lines.length).toBeLessThan(0.48);
    expect(summary.dead + summary.live + summary.pending).toBe(4000);
    for (const line of lines) {
      expect(line.is_live).toBe(line.status_category === 'registered');
      const meaning = table.get(line.status_code);
      if (line.status_category === 'dead') expect(meaning).toMatch(/^Dead/);
      else if (line.status_category === 'pending') expect(meaning).toBe('Live/Pending');
      else expect(meaning).toBe('Live/Registered');
    }
    for (const [category, codes] of Object.entries(STATUS_CODES))
      for (const [code] of codes)
        expect(table.get(code)).toMatch(
          category === 'dead' ? /^Dead/ : category === 'pending' ? /^Live\/Pending$/ : /^Live\/Registered$/,
        );
  });

  it('skews the class count to one and draws classes from the documented mix', () => {
    const { lines } = run({ marks: 4000 });
    const ones = lines.filter((line) => line.nice.length === 1).length;
    expect(ones / lines.length).toBeGreaterThan(0.5);
    expect(Object.values(CLASS_MIX).reduce((a, b) => a + b, 0)).toBe(1014);
    expect(Object.keys(CLASS_MIX)).toHaveLength(45);
  });

  it('honours --marks below the natural total, sampling every source in proportion', () => {
    const { lines, summary } = run({ marks: 120 });
    expect(lines).toHaveLength(120);
    for (const source of SOURCES) expect(summary.written[source]).toBeGreaterThan(0);
    const natural = SOURCES.map((source) => summary.natural[source]);
    expect(SOURCES.map((source) => summary.written[source])).toEqual(proportionalQuotas(natural, 120));
  });

  it('fills above the natural total with coined names and pairs', () => {
    const small = run({ marks: 0 });
    expect(small.lines).toHaveLength(0);
    const { lines, summary } = run({ marks: 1500 });
    expect(lines).toHaveLength(1500);
    expect(summary.written.dictionary).toBe(summary.natural.dictionary);
    expect(summary.written.wordnet).toBe(INPUTS.wordnetLemmas.length);
    expect(summary.written.coined + summary.written.pair).toBeGreaterThan(300);
    const coined = lines.filter(
      (line) => /^[A-Z]{4,10}$/.test(line.mark) && !INPUTS.dictionaryWords.includes(line.mark.toLowerCase()),
    );
    expect(coined.length).toBeGreaterThan(0);
  });

  it('gives every mark a unique serial with its own prefix', () => {
    const { lines } = run({ marks: 3000 });
    const serials = new Set(lines.map((line) => line.serial));
    expect(serials.size).toBe(3000);
    for (const serial of serials) expect(serial).toMatch(/^US-RS-\d{7}$/);
  });

  it("puts a word's own goods class first about half of the time", () => {
    const { lines } = run({ marks: 600, ownClassesOf: () => [{ nice: '02', weight: 1 }] });
    const dictionaryTexts = new Set(INPUTS.dictionaryWords.map((word) => word.toUpperCase()));
    const ofDictionary = lines.filter((line) => dictionaryTexts.has(line.mark));
    const withOwn = ofDictionary.filter((line) => line.nice.includes(2)).length;
    expect(ofDictionary.length).toBeGreaterThan(20);
    expect(withOwn / ofDictionary.length).toBeGreaterThan(0.3);
    const coinedWithClass2 = lines.filter((line) => /^[A-Z]+$/.test(line.mark) && !dictionaryTexts.has(line.mark));
    expect(coinedWithClass2.filter((line) => line.nice.includes(2)).length / coinedWithClass2.length).toBeLessThan(0.1);
  });

  it('reads the word lists: lower-case words of 3+ letters without possessives, WordNet multi-word lemmas', () => {
    expect(dictionaryWordsOf("Aaron\nab\nink\nink's\nmemory\ncafé\nUSA\n")).toEqual(['ink', 'memory', 'café']);
    const data = [
      '  1 This software and database is being provided to you, the LICENSEE, by',
      '00001740 03 n 02 entity 0 hot_dog 0 003 ~ 00001930 n 0000 | that which is perceived',
      '00002098 00 a 03 able 0 well_made(a) 0 New_York 0 000 | (usually followed by `to`)',
    ].join('\n');
    expect(wordnetLemmasOf(data)).toEqual(['hot dog', 'well made', 'New York']);
  });

  it('misspells a brand by one edit', () => {
    const draw = drawFrom(seededRandom(5));
    for (let index = 0; index < 50; index++) {
      const variant = misspell(draw, 'Adidas');
      expect(variant).toBeDefined();
      expect(variant!.toLowerCase()).not.toBe('adidas');
      expect(Math.abs(variant!.length - 6)).toBeLessThanOrEqual(1);
    }
    expect(misspell(draw, 'ab')).toBeUndefined();
  });
});
