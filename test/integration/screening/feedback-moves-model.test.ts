/**
 * A reported false alarm moves the next model: the trainer's own fit (builders/screening/fit-model.ts, sklearn's
 * trees under /usr/bin/python3) on a small labelled set (test/fixtures/screening/feedback-small-set.json), once as
 * it is and once with one exported false alarm (feedback-false-alarm.jsonl) read and matched as the trainer reads
 * reports (builders/screening/feedback-examples.ts, at FEEDBACK_WEIGHT). The false alarm's title scores lower
 * after; a title of a brand nobody reported scores about the same.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  FEEDBACK_WEIGHT,
  feedbackExamples,
  feedbackMarkBatch,
  readFeedback,
} from '../../../builders/screening/feedback-examples';
import { type FitExample, fitTrees, provisional } from '../../../builders/screening/fit-model';
import { brandKey } from '../../../builders/screening/labelled-titles';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { createScreeningService } from '../../../shared/screening/screening-service';
import type { TitleScreener } from '../../../shared/screening/screen-titles';
import { createInMemoryDataStores } from '../../support/in-memory-data-stores';

const FIXTURES = path.join(__dirname, '../../fixtures/screening');
const SET = JSON.parse(readFileSync(path.join(FIXTURES, 'feedback-small-set.json'), 'utf8')) as {
  marks: { mark: string; nice: string[] }[];
  titles: { title: string; brand: string }[];
};
const REPORT_FILE = path.join(FIXTURES, 'feedback-false-alarm.jsonl');
const OTHER_TITLE = 'Anker Portable Charger 10000mAh Slim';
/** Small trees with small leaves: the set has a few dozen matches, the shipped shape (4, 30) would fit one leaf. */
const FIT = { seed: 20261128, shape: [3, 3], quiet: true };

async function screenerOf(batches: string[]): Promise<TitleScreener> {
  const stores = createInMemoryDataStores();
  for (const [i, batch] of batches.entries()) {
    const summary = await ingestBatch(stores, {
      kind: 'marks-jsonl',
      market: 'US',
      input: Readable.from([batch]),
      batchDate: '2026-11-24',
      source: `feedback-test-${i}`,
      holder: 'feedback-test',
    });
    if (!summary.complete || summary.rejected > 0) throw new Error(JSON.stringify(summary));
  }
  return createScreeningService(stores, { refreshMs: 3_600_000 }).screener;
}

/** Each title's matches, labelled by the brand it uses: brand use for that brand's mark, none for any other. */
async function labelled(screener: TitleScreener): Promise<FitExample[]> {
  const matched = await screener.examples(SET.titles.map((t) => ({ title: t.title })));
  return SET.titles.flatMap((t, i) =>
    matched[i]!.map((e) => ({
      features: e.features,
      label: t.brand !== '' && brandKey(e.match.mark) === brandKey(t.brand) ? (1 as const) : (0 as const),
      title: { group: brandKey(t.brand) || `none:${i}` },
    })),
  );
}

it('one reported false alarm lowers its title’s score in the next fit, and barely moves another title’s', async () => {
  const markBatch = `${SET.marks
    .map((m, i) =>
      JSON.stringify({ serial: `FT-${i + 1}`, mark: m.mark, nice: m.nice, is_live: true, drawing_kind: 'word' }),
    )
    .join('\n')}\n`;
  const { reports, files } = readFeedback([REPORT_FILE]);
  const screener = await screenerOf([markBatch, feedbackMarkBatch(reports)]);
  const base = await labelled(screener);
  const report = await feedbackExamples(screener, reports, () => false);
  const [alarm] = await screener.examples([{ title: reports[0]!.title }]);
  const [other] = await screener.examples([{ title: OTHER_TITLE }]);
  const ranger = alarm!.find((e) => brandKey(e.match.mark) === 'ranger')!;
  const anker = other!.find((e) => brandKey(e.match.mark) === 'anker')!;

  const without = provisional(fitTrees(base, base, [], FIT));
  const withReport = provisional(fitTrees([...base, ...report.examples], base, [], FIT));

  expect(files).toEqual([expect.objectContaining({ lines: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })]);
  expect(report).toMatchObject({ used: 1, unmatched: 0 });
  expect(report.examples.every((e) => e.label === 0 && e.weight === FEEDBACK_WEIGHT)).toBe(true);
  const before = without.probability(ranger.features);
  const after = withReport.probability(ranger.features);
  expect(after).toBeLessThan(before - 0.2);
  expect(Math.abs(withReport.probability(anker.features) - without.probability(anker.features))).toBeLessThan(0.05);
});
