/**
 * `npm run eval:screen`: the screening engine's quality on labelled titles, against the sample corpus loaded into
 * DynamoDB Local through the real ingest code. Writes its section of BENCHMARKS.md.
 *  - brand recall: Flipkart titles whose labelled brand is written in the title and is a mark in the corpus; a hit
 *    is that brand coming back as top_conflict;
 *  - false positives: the same Flipkart titles (every one whose brand is written in it) with the brand removed;
 *    anything but 低 is a false positive;
 *  - Amazon device titles (the Markup's set): how titles naming Amazon marks, often "for Kindle" / "compatible
 *    with Alexa", are rated;
 *  - the hand-written hard cases (test/fixtures/screening/hard-cases.json).
 */
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { joined, normalizeText } from '../../shared/marks/lookup-keys';
import type { MarkStore } from '../../shared/ports';
import { isDualUse, isGenericWord, isStopword } from '../../shared/screening/lexicon';
import type { ScreeningResult } from '../../shared/screening/screen-titles';
import { wordsOfTitle } from '../../shared/screening/title-words';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { createSampleCorpusStack, hardCases } from '../support/sample-corpus-stack';
import { machineLine, runAndWriteSection } from './bench-support';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const FIXTURES = path.join(__dirname, '../fixtures/titles');
const key = (text: string) => joined(normalizeText(text));
const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The title without the brand: every occurrence, however it is cased, as a whole word or words. */
export function withoutBrand(title: string, brand: string): string {
  return title
    .replace(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(brand)}(?=$|[^\\p{L}\\p{N}])`, 'giu'), '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether each title names a corpus mark in a run of one or two coined words (not generic, dual-use or a stopword). */
async function namesOtherBrand(marks: MarkStore, titles: string[]): Promise<boolean[]> {
  const runsOf = (title: string) => {
    const words = wordsOfTitle(title).filter((w) => !w.cjk);
    const coined = words.map((w) => !isGenericWord(w.norm) && !isDualUse(w.norm) && !isStopword(w.norm) && !/^\d+$/.test(w.norm));
    const runs: string[] = [];
    words.forEach((w, i) => {
      if (coined[i]) runs.push(`e:${w.norm}`);
      if (coined[i] && coined[i + 1]) runs.push(`e:${w.norm}${words[i + 1]!.norm}`);
    });
    return runs;
  };
  const perTitle = titles.map(runsOf);
  const found = await marks.lookup('US', [...new Set(perTitle.flat())]);
  return perTitle.map((runs) => runs.some((k) => found.has(k)));
}

function tally(values: string[], top = 12): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([v, n]) => `${v} (${n})`).join(', ') || 'none';
}

export async function evaluateScreening(): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const { screening, stores } = await createSampleCorpusStack();
    const screen = async (titles: { title: string; nice?: string }[]): Promise<ScreeningResult[]> => {
      const out: ScreeningResult[] = [];
      for (let i = 0; i < titles.length; i += 1000) out.push(...(await screening.screen(titles.slice(i, i + 1000), { detail: true })).results);
      return out;
    };

    // Flipkart: brand recall and false positives.
    const rows = parse(readFileSync(path.join(FIXTURES, 'flipkart-dev/flipkart_dev.csv'), 'utf8'), { columns: true }) as { uniq_id: string; product_name: string; brand: string }[];
    // Rows whose brand column gives the product's colour, not its maker (SOURCE.txt): reported both ways.
    const errata = new Set((parse(readFileSync(path.join(FIXTURES, 'flipkart-dev/label-errata.csv'), 'utf8'), { columns: true }) as { uniq_id: string }[]).map((r) => r.uniq_id));
    const branded = rows.filter((r) => r.brand.trim() && key(r.brand) && key(r.product_name).includes(key(r.brand)));
    const brandKeys = [...new Set(branded.map((r) => `e:${key(r.brand)}`))];
    const inCorpus = await stores.marks.lookup('US', brandKeys);
    const recallSet = branded.filter((r) => inCorpus.has(`e:${key(r.brand)}`));
    const recallResults = await screen(recallSet.map((r) => ({ title: r.product_name })));
    const misses = recallSet.filter((r, i) => key(recallResults[i]!.top_conflict) !== key(r.brand));
    const ordinaryBrand = (brand: string) => wordsOfTitle(brand).every((w) => isGenericWord(w.norm) || isDualUse(w.norm));
    const distinctive = recallSet.filter((r) => !ordinaryBrand(r.brand));
    const distinctiveMisses = misses.filter((r) => !ordinaryBrand(r.brand));
    const checkedSet = recallSet.filter((r) => !errata.has(r.uniq_id));
    const checkedMisses = misses.filter((r) => !errata.has(r.uniq_id));
    // EVAL_SHOW_MISSES=1 lists every missed brand and every false positive on stderr.
    if (process.env.EVAL_SHOW_MISSES) {
      for (const r of misses) {
        const result = recallResults[recallSet.indexOf(r)]!;
        console.error(`miss\t${r.brand}\t${result.risk}\t${result.top_conflict ?? '-'}\t${r.product_name}`);
      }
    }
    const missReasons = misses.map((r) => {
      const result = recallResults[recallSet.indexOf(r)]!;
      return result.top_conflict ? 'another mark ranked first' : 'brand judged generic or not found';
    });

    const strippedAll = branded.map((r) => ({ title: withoutBrand(r.product_name, r.brand) })).filter((t) => t.title.length > 0);
    // A title that still names another brand in a coined word ("Sun Shade for Hyundai i10") is not brand-free:
    // it is set aside, decided by the corpus and the lexicon, not by the engine's weighing.
    const named = await namesOtherBrand(stores.marks, strippedAll.map((t) => t.title));
    const stripped = strippedAll.filter((_, i) => !named[i]);
    const strippedResults = await screen(stripped);
    const falsePositives = strippedResults.filter((r) => r.risk !== '低');
    if (process.env.EVAL_SHOW_MISSES) for (const r of falsePositives) console.error(`false positive\t${r.risk}\t${r.top_conflict}\t${r.name}`);

    // The Markup's Amazon device titles.
    const amazon = Object.values(JSON.parse(readFileSync(path.join(FIXTURES, 'markup-amazon/titles.json'), 'utf8')) as Record<string, string>);
    const amazonResults = await screen(amazon.map((title) => ({ title })));
    const byRisk = (results: ScreeningResult[]) => ['高', '中', '低'].map((risk) => `${risk} ${results.filter((r) => r.risk === risk).length}`).join(', ');

    // Hand-written hard cases.
    const cases = hardCases();
    const caseResults = await screen(cases.map((c) => ({ title: c.title, ...(c.nice ? { nice: c.nice } : {}) })));
    const failed = cases.filter((c, i) => {
      const r = caseResults[i]!;
      return r.risk !== c.risk || (c.top_conflict !== undefined && r.top_conflict !== c.top_conflict) || (c.tro_hit !== undefined && r.tro_hit !== c.tro_hit);
    });
    const kinds = [...new Set(cases.map((c) => c.kind))];

    const recall = (recallSet.length - misses.length) / Math.max(1, recallSet.length);
    const fpRate = falsePositives.length / Math.max(1, stripped.length);
    const checkedRecall = (checkedSet.length - checkedMisses.length) / Math.max(1, checkedSet.length);
    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run eval:screen\`.
Corpus: the sample corpus (data/sample: 7,327 US sample marks, 180 CN, the USPTO excerpt, 19 TRO brands) loaded
through the ingest code into DynamoDB Local. Aims: recall at least 95%, false positives at most 3%.

| measure | set | result |
|---|---|---|
| brand recall (labelled brand is top_conflict) | ${recallSet.length} Flipkart titles whose brand is written in the title and is a corpus mark | **${pct(recallSet.length - misses.length, recallSet.length)}** (${misses.length} missed) |
| brand recall, the ${recallSet.length - checkedSet.length} rows of label-errata.csv set aside (brand column gives the colour: "Lovinoform ... Black Cotton ... Bra", brand Black) | ${checkedSet.length} of those titles | **${pct(checkedSet.length - checkedMisses.length, checkedSet.length)}** (${checkedMisses.length} missed) |
| brand recall, distinctive brands only (not ordinary words such as Black, Pilot, Magic) | ${distinctive.length} of those titles | **${pct(distinctive.length - distinctiveMisses.length, distinctive.length)}** (${distinctiveMisses.length} missed) |
| false positives (brand removed, anything but 低) | ${stripped.length} Flipkart titles with their brand removed (${strippedAll.length - stripped.length} more still name another corpus brand in a coined word, set aside) | **${pct(falsePositives.length, stripped.length)}** (${falsePositives.length}) |
| Amazon device titles (Kindle, Echo, Ring, Fire TV, "for Kindle" ...) | ${amazon.length} titles | ${byRisk(amazonResults)} |
| hand-written hard cases | ${cases.length} cases (${kinds.join(', ')}) | ${cases.length - failed.length} of ${cases.length} as expected${failed.length ? `; off: ${failed.map((c) => `"${c.title}"`).join(', ')}` : ''} |

Errors by kind:
- missed brands: ${tally(missReasons)}; the brands missed most: ${tally(misses.map((r) => r.brand))}.
- missed brands, label-errata rows set aside: ${tally(checkedMisses.map((r) => r.brand))}.
- false positives, by the mark that raised them: ${tally(falsePositives.map((r) => r.top_conflict))}.
- false positives, by risk: ${tally(falsePositives.map((r) => r.risk))}.

Recall over every labelled title ${recall >= 0.95 ? 'meets' : 'is below'} the 95% aim; with the rows whose label is the product's colour set aside, it ${checkedRecall >= 0.95 ? 'meets' : 'is below'} it. False positives ${fpRate <= 0.03 ? 'meet' : 'are above'} the 3% aim.
Most sample marks carry no Nice class (data/sample/SOURCE.txt), so a brand that is also an ordinary word cannot be
confirmed by its class. It counts (中) where a maker's name stands: first in the title, capitalised, before the
words naming the product ("Pilot Ball Pen", "Magic ... Chain"); a word that describes the product (a colour,
material, pattern: "Black", "Glass", "Solid") or stands elsewhere is let go. Many of the brands still missed are
colours that the brand column gives for titles whose maker is another word ("Lovinoform ... Black Cotton ... Bra").
With register data, where every mark has its classes, those brands are weighed by class instead.
The Flipkart brand column is noisy (SOURCE.txt: about 70% of rows have a brand); a removed brand can leave another
real brand behind (accessories "for Samsung"), which this count still calls a false positive.
`;
  } finally {
    await engine.stop();
  }
}

if (require.main === module) runAndWriteSection('Screening quality', evaluateScreening);
