/**
 * `npm run train:screen`: fits the brand-use model of batch screening and writes data/screening/brand-use-model.json.
 *
 *  1. Labelled titles (test/fixtures/titles), split by brand (builders/screening/screening-dataset.ts); the
 *     "registered" corpus: the sample corpus plus every labelled brand as a mark, through the real ingest code.
 *  2. Train: every match in the train split's titles, in the same titles with their brand taken out, and in
 *     titles whose brand is spelt evasively or misspelt (evasion-variants.ts); labelled by labelOf.
 *  3. Fit L2 logistic regression for each L2 strength; keep the one with the lowest log loss on validation.
 *  4. Thresholds, on validation: 中 from the lowest probability at which at most 2% of the brand-removed titles
 *     carry a conflict the labels call no brand use; 高 likewise at 0.5%.
 *  5. Write the weights, thresholds, the data they came from (names, counts, SHA-256) and this command.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_NAMES } from '../shared/screening/brand-use-features';
import { evasiveSpelling, misspelling } from './screening/evasion-variants';
import { fitLogistic, logLoss, predict, type LogisticFit } from './screening/logistic-regression';
import {
  labelledExamples,
  loadCorpus,
  splitTitles,
  SPLIT_SEED,
  type LabelledExample,
} from './screening/screening-dataset';
import type { LabelledTitle } from './screening/labelled-titles';

const OUT = path.join(__dirname, '../data/screening/brand-use-model.json');
const LAMBDAS = [1, 3, 10, 30, 100, 300];
const MEDIUM_FALSE_ALARMS = 0.02;
const HIGH_FALSE_ALARMS = 0.005;
const NOMINATIVE = FEATURE_NAMES.indexOf('cue_nominative');

function replaceBrand(t: LabelledTitle, spelt: string, kind: string): LabelledTitle {
  const pattern = new RegExp(
    `(^|[^\\p{L}\\p{N}])${t.brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^\\p{L}\\p{N}])`,
    'iu',
  );
  return { ...t, id: `${t.id}:${kind}`, title: t.title.replace(pattern, `$1${spelt}`) };
}

/** Every fifth branded train title with its brand spelt evasively, and another fifth with it misspelt. */
function respelt(titles: readonly LabelledTitle[]): LabelledTitle[] {
  const out: LabelledTitle[] = [];
  titles.forEach((t, n) => {
    if (t.set === 'markup-amazon') return;
    const evasive = n % 5 === 0 ? evasiveSpelling(t.brand, n / 5) : undefined;
    if (evasive) out.push(replaceBrand(t, evasive, 'evasive'));
    const misspelt = n % 5 === 1 ? misspelling(t.brand, (n - 1) / 5) : undefined;
    if (misspelt) out.push(replaceBrand(t, misspelt, 'misspelt'));
  });
  return out;
}

/** The lowest threshold at which at most `rate` of the titles carry a conflict the labels call no brand use. */
function thresholdFor(
  titles: readonly { p: number; label: number; nominative: boolean }[][],
  rate: number,
  high: boolean,
): number {
  const worst = titles.map((list) =>
    Math.max(0, ...list.filter((e) => e.label === 0 && !(high && e.nominative)).map((e) => e.p)),
  );
  const sorted = [...worst].sort((a, b) => b - a);
  const allowed = Math.floor(rate * titles.length);
  const cut = sorted[allowed] ?? 0;
  return Math.min(0.99, Math.max(0.05, cut + 1e-6));
}

function hashOf(titles: readonly LabelledTitle[]): string {
  return createHash('sha256')
    .update(titles.map((t) => `${t.set}\t${t.id}\t${t.title}\t${t.brand}`).join('\n'))
    .digest('hex');
}

/** The L2 strength whose fit has the lowest log loss on the validation split, with that fit. */
function bestByValidation(
  rows: readonly Float64Array[],
  labels: readonly number[],
  validation: readonly LabelledExample[],
): { fit: LogisticFit; lambda: number; loss: number } {
  let best: { fit: LogisticFit; lambda: number; loss: number } | undefined;
  for (const lambda of LAMBDAS) {
    const fit = fitLogistic(rows, labels, lambda);
    const loss = logLoss(
      validation.map((e) => predict(fit, e.features)),
      validation.map((e) => e.label),
    );
    console.log(`lambda ${lambda}: validation log loss ${loss.toFixed(4)} (${fit.iterations} iterations)`);
    if (!best || loss < best.loss) best = { fit, lambda, loss };
  }
  return best!;
}

async function main(): Promise<void> {
  const started = Date.now();
  const splits = splitTitles();
  const corpus = await loadCorpus('registered');
  const trainTitles = [...splits.train.branded, ...splits.train.removed, ...respelt(splits.train.branded)];
  const validationTitles = [...splits.validation.branded, ...splits.validation.removed];
  const train = (await labelledExamples(corpus.screener, trainTitles)).flat();
  const validationByTitle = await labelledExamples(corpus.screener, validationTitles);
  const validation = validationByTitle.flat();
  const rows = train.map((e) => e.features);
  const labels = train.map((e) => e.label);

  const { fit, lambda, loss } = bestByValidation(rows, labels, validation);
  const removedIds = new Set(splits.validation.removed.map((t) => t.id));
  const scored = (list: LabelledExample[]) =>
    list.map((e) => ({ p: predict(fit, e.features), label: e.label, nominative: e.features[NOMINATIVE] === 1 }));
  const removedAll = validationTitles
    .map((t, i) => (removedIds.has(t.id) ? scored(validationByTitle[i]!) : undefined))
    .filter((x) => x !== undefined);
  if (process.env.SHOW_FALSE_ALARMS) {
    const worst = validationTitles.flatMap((t, i) =>
      removedIds.has(t.id)
        ? validationByTitle[i]!.filter((e) => e.label === 0).map((e) => ({
            p: predict(fit, e.features),
            mark: e.match.mark,
            title: t.title,
          }))
        : [],
    );
    for (const w of worst.sort((a, b) => b.p - a.p).slice(0, 60))
      console.log(`${w.p.toFixed(3)}\t${w.mark}\t${w.title}`);
  }
  const medium = thresholdFor(removedAll, MEDIUM_FALSE_ALARMS, false);
  const high = Math.max(medium, thresholdFor(removedAll, HIGH_FALSE_ALARMS, true));

  const weights = fit.weights.map((w) => Number(w.toPrecision(6)));
  const version = `${new Date().toISOString().slice(0, 10)}-${createHash('sha256').update(JSON.stringify(weights)).digest('hex').slice(0, 8)}`;
  const count = (titles: readonly LabelledTitle[], set: string) => titles.filter((t) => t.set === set).length;
  const model = {
    version,
    about:
      'Brand-use model of batch screening: logistic regression over shared/screening/brand-use-features.ts. Written by npm run train:screen; do not edit by hand.',
    command: 'npm run train:screen',
    features: FEATURE_NAMES,
    intercept: Number(fit.intercept.toPrecision(6)),
    weights,
    thresholds: { medium: Number(medium.toFixed(4)), high: Number(high.toFixed(4)) },
    trainedOn: {
      data: [
        'test/fixtures/titles/flipkart-dev',
        'test/fixtures/titles/amazon-google',
        'test/fixtures/titles/markup-amazon',
      ],
      corpus: `registered: the sample corpus plus every labelled brand (${corpus.marks} US marks)`,
      split: { seed: SPLIT_SEED, by: 'brand group, SHA-256 of seed and group: 60% train, 20% validation, 20% test' },
      trainTitles: {
        branded: splits.train.branded.length,
        brandRemoved: splits.train.removed.length,
        respelt: trainTitles.length - splits.train.branded.length - splits.train.removed.length,
        flipkart: count(splits.train.branded, 'flipkart-dev'),
        amazonGoogle: count(splits.train.branded, 'amazon-google'),
        markup: count(splits.train.branded, 'markup-amazon'),
        brands: splits.brands.train.size,
      },
      trainExamples: { total: train.length, positive: labels.filter((l) => l === 1).length },
      trainSha256: hashOf(trainTitles),
      validationTitles: {
        branded: splits.validation.branded.length,
        brandRemoved: splits.validation.removed.length,
        brands: splits.brands.validation.size,
      },
      validationSha256: hashOf(validationTitles),
      l2: lambda,
      validationLogLoss: Number(loss.toFixed(4)),
      thresholdRule: `medium: lowest probability at which at most ${MEDIUM_FALSE_ALARMS * 100}% of validation brand-removed titles carry a conflict labelled no brand use; high: the same at ${HIGH_FALSE_ALARMS * 100}%, nominative uses aside`,
    },
  };
  writeFileSync(OUT, `${JSON.stringify(model, null, 1)}\n`);
  console.log(
    `model ${version}: ${train.length} examples (${model.trainedOn.trainExamples.positive} brand uses), L2 ${lambda}, thresholds 中 ${model.thresholds.medium} 高 ${model.thresholds.high}; ${((Date.now() - started) / 1000).toFixed(1)} s -> ${path.relative(process.cwd(), OUT)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
