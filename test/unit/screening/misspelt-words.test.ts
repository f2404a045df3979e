/**
 * A misspelling of an ordinary word is that word (shared/screening/misspelt-words.ts): with marks of plain language
 * registered for the very goods ("SUMPTUOUS" and "STATUESQUE" for jewellery, "SHILLED" for shoes), a title that
 * misspells the word raises nothing ("Elegence", "Briliant": the brand-use model alone rates those 高), while the
 * same marks written as registered are still judged, and a misspelt
 * name that is no plain language, a TRO brand's or a strong mark's, is still a match. The marks are loaded through
 * the real ingest into the in-memory stores beside the sample corpus.
 */
import { Readable } from 'node:stream';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { isMisspeltOrdinaryWord, isPlainLanguageMark } from '../../../shared/screening/misspelt-words';
import type { RunMatch } from '../../../shared/screening/run-matches';
import { createInMemoryScreening, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

const MARKS = [
  { serial: 'MW-000001', mark: 'SUMPTUOUS', nice: [14], owner: 'Sumptuous Jewels LLC' },
  { serial: 'MW-000002', mark: 'STATUESQUE', nice: [14], owner: 'Statuesque Designs Inc' },
  { serial: 'MW-000003', mark: 'VOLUMINOUS', nice: [14], owner: 'Voluminous Gems Co' },
  { serial: 'MW-000004', mark: 'SHILLED', nice: [25], owner: 'Shilled Athletics LLC' },
  { serial: 'MW-000005', mark: 'ELEGANCE', nice: [14], owner: 'Elegance Fine Jewelry Inc' },
  { serial: 'MW-000006', mark: 'GRACEFUL', nice: [14], owner: 'Graceful Ornaments LLC' },
  { serial: 'MW-000007', mark: 'BRILLIANT', nice: [14], owner: 'Brilliant Stones Co' },
];

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createInMemoryScreening();
  const lines = MARKS.map((m) => JSON.stringify({ ...m, is_live: true, drawing_kind: 'word' }));
  const summary = await ingestBatch(corpus.stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([`${lines.join('\n')}\n`]),
    batchDate: '2026-11-24',
    source: 'misspelt-words',
    holder: 'misspelt-words',
  });
  if (!summary.complete || summary.rejected !== 0) throw new Error(`marks not loaded: ${JSON.stringify(summary)}`);
}, 60_000);

const screen = (title: string, nice?: string) => screenOne(corpus, title, nice);

describe('a title misspelling an ordinary word registered as a mark', () => {
  it.each([
    ['Sumptous Sparkle White Gold Diamond 14 K Ring', 'SUMPTUOUS'],
    ['Statusque Yellow Gold Diamond 18 K Ring', 'STATUESQUE'],
    ['Voluminious Black and White Yellow Gold Diamond 18 K Ring', 'VOLUMINOUS'],
    ['Sport-Shiled Training & Gym Shoes', 'SHILLED'],
    // Without the rule the brand-use model rates these three 高 (0.95 and above) in this register.
    ['Elegence Gold Ring', 'ELEGANCE'],
    ['Gracefull Silver Necklace', 'GRACEFUL'],
    ['Briliant Diamond Ring', 'BRILLIANT'],
  ])('"%s" raises nothing on %s', async (title, mark) => {
    const result = await screen(title);
    expect(result.conflicts!.map((c) => c.mark)).not.toContain(mark);
    expect(result.risk).toBe('低');
  });
});

function fuzzyMatch(mark: string, over: Partial<RunMatch> = {}): RunMatch {
  return {
    mark,
    serial: '1',
    niceClasses: ['14'],
    isLive: true,
    kind: 'fuzzy',
    distance: 1,
    tro: false,
    troOnly: false,
    cn: false,
    ownerRegistrations: 1,
    ownerClasses: ['14'],
    ...over,
  };
}

describe('which matches are a misspelt ordinary word', () => {
  it.each(['SUMPTUOUS', 'HEARTH', 'COLORFUL', 'STATUS QUO', 'Turquoise'])('%s is plain language', (mark) => {
    expect(isPlainLanguageMark(mark)).toBe(true);
    expect(isMisspeltOrdinaryWord(fuzzyMatch(mark))).toBe(true);
  });

  it.each(['NIKE', 'STANLEY', 'MICROi', 'GOPRO', 'Zorvantix'])('%s is a name, not plain language', (mark) => {
    expect(isPlainLanguageMark(mark)).toBe(false);
    expect(isMisspeltOrdinaryWord(fuzzyMatch(mark))).toBe(false);
  });

  it('an exact match of a plain-language mark is judged as ever', () => {
    expect(isMisspeltOrdinaryWord(fuzzyMatch('SUMPTUOUS', { kind: 'exact', distance: 0 }))).toBe(false);
  });

  it("a TRO brand's misspelling still counts", () => {
    expect(isMisspeltOrdinaryWord(fuzzyMatch('COACH', { tro: true }))).toBe(false);
  });

  it("a strong mark's misspelling still counts (its owner's portfolio across classes)", () => {
    const strong = { ownerRegistrations: 6, ownerClasses: ['14', '18', '25', '9', '3'] };
    expect(isMisspeltOrdinaryWord(fuzzyMatch('COACH', strong))).toBe(false);
  });
});
