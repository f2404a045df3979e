/**
 * `npm run train:screen`: fits the brand-use model of batch screening and writes data/screening/brand-use-model.json.
 *
 *  1. Labelled titles (test/fixtures/titles), split by brand (builders/screening/screening-dataset.ts); the
 *     "registered" corpus: the sample corpus plus every labelled brand as a mark, through the real ingest code.
 *  2. Train: every match in the train split's titles, in the same titles with their brand taken out, in titles
 *     whose brand is spelt evasively or misspelt (evasion-variants.ts), and in titles made from them by stated rules
 *     (rule-variants.ts: the brand named after "for" / "compatible with", a person's name, a dual-use word alone
 *     with a quantity or joined by "and" after "for", a dual-use word of another kind before a product word, a
 *     common term); labelled by labelOf. The train titles are matched against the registered corpus plus the common
 *     terms of goods that hold a word no word list knows, each as a mark ("PCI Express": termMarkBatch).
 *     Sellers' reports exported by `npm run admin -- feedback export` (data/screening/feedback/*.jsonl, or
 *     `--feedback FILE`) join train, each its mark's matches labelled as reported (screening/feedback-examples.ts).
 *  3. builders/screening/fit-trees.py (sklearn under /usr/bin/python3, fixed seed): gradient-boosted trees fitted
 *     on train; the depth and least leaf size with the lowest log loss on validation, and the fewest of their trees
 *     within 1% of that loss (each tree costs every match its walk). Cross-fitting: the train split's own titles,
 *     read as validation reads them (training-examples.ts crossFitTitles), each scored by trees of that shape fitted
 *     without its brand group's fold (screening-dataset.ts crossFitFold). Platt scaling on the validation and
 *     cross-fit margins together.
 *  4. Thresholds, on the brand-removed titles of validation and of the cross-fit titles (about 5,400 titles, where
 *     validation alone holds 1,100): 中 the lowest probability at which at most 2% of them carry a conflict the
 *     labels call no brand use (the most recall that budget buys); 高 likewise at 0.5%. Each is taken on sets of
 *     those titles drawn again by brand, with a margin: the 0.9 quantile of the draws (screening/thresholds.ts).
 *     Chosen on validation alone as the draws' mean, 高 sat at 0.76 (model 495b38ac), where 0.87% of the cross-fit
 *     titles carried a false alarm: 1,100 titles hold about five within the budget.
 *  5. Write the trees, the scaling, the thresholds, the data they came from (names, counts, SHA-256 of the titles and
 *     of the examples' labels and features: test/unit/screening/model-features-current.test.ts recomputes the latter)
 *     and this command. Run twice on the same code, the command writes the same trees and version.
 *
 * `-- --hold-out SET --out FILE` fits the same way without one labelled set's titles, for the check across
 * marketplaces of `npm run eval:screen -- --hold-out SET --model FILE` (screening-dataset.ts holdOutSet); the
 * plain-word counts the features read are then counted without that set too. `-- --tree-seed N --out FILE` fits
 * the same data from another seed: a change whose figures move less than a change of seed moves them is not shown by
 * one fit (BENCHMARKS.md, "This session" of 2026-11-27: the cross-fit log loss moved by 0.003).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_NAMES } from '../shared/screening/brand-use-features';
import { shippedBrandUseModel, type TreeData } from '../shared/screening/brand-use-model';
import {
  FEEDBACK_WEIGHT,
  feedbackExamples,
  feedbackFiles,
  feedbackMarkBatch,
  readFeedback,
} from './screening/feedback-examples';
import { checkFitter, type FittedTrees, fitTrees, provisional } from './screening/fit-model';
import {
  CROSS_FIT_FOLDS,
  featureFingerprint,
  holdOutSet,
  loadCorpus,
  REGISTER_SLICE,
  splitTitles,
  SPLIT_SEED,
  type LabelledExample,
  type SplitTitles,
} from './screening/screening-dataset';
import { LABELLED_SETS, labelledTitles, type LabelledSet, type LabelledTitle } from './screening/labelled-titles';
import { countPlainWordsOf } from './screening/plain-word-counts';
import { trainingExamples } from './screening/training-examples';
import {
  type ScoredTitle,
  THRESHOLD_CONFIDENCE,
  THRESHOLD_DRAWS,
  THRESHOLD_SEED,
  thresholdFor,
} from './screening/thresholds';

const SHIPPED_OUT = path.join(__dirname, '../data/screening/brand-use-model.json');

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

const HOLD_OUT = argument('--hold-out') as LabelledSet | undefined;
if (HOLD_OUT !== undefined && !LABELLED_SETS.includes(HOLD_OUT))
  throw new Error(`--hold-out: one of ${LABELLED_SETS.join(', ')}`);
const OUT = path.resolve(argument('--out') ?? SHIPPED_OUT);
/**
 * `--register FILE`: a register-scale corpus (npm run data:register-scale) under every corpus (training-examples.ts);
 * by default the slice of it the labelled titles can find (data/screening/register-slice.jsonl), `none` for none.
 */
const REGISTER_ARGUMENT = argument('--register');
const REGISTER = REGISTER_ARGUMENT === 'none' ? null : (REGISTER_ARGUMENT ?? REGISTER_SLICE);
const TREE_SEED = Number(argument('--tree-seed') ?? 20261125);
if (!Number.isSafeInteger(TREE_SEED) || TREE_SEED < 0) throw new Error('--tree-seed: a whole number 0 or more');
/**
 * `--shape DEPTH,LEAF`: fit trees of that depth and least leaf size only, instead of choosing among six on
 * validation (the marketplace hold-out models take the shipped model's shape: a sixth of the fitting).
 */
const SHAPE = argument('--shape')?.split(',').map(Number);
if (SHAPE && (SHAPE.length !== 2 || !SHAPE.every((n) => Number.isSafeInteger(n) && n > 0)))
  throw new Error('--shape: DEPTH,LEAF, two whole numbers');
const FIT_OPTIONS = { seed: TREE_SEED, ...(SHAPE ? { shape: SHAPE } : {}) };
/**
 * `--no-cross-fit`: the scaling and thresholds on validation alone, without the five fold fits (the marketplace
 * hold-out models of `npm run eval:screen -- --hold-out`: a third of the fitting on two cores).
 */
const NO_CROSS_FIT = process.argv.includes('--no-cross-fit');
/**
 * `--feedback FILE` (repeatable): sellers' reports as `npm run admin -- feedback export` writes them; without it,
 * every data/screening/feedback/*.jsonl; `--feedback none` for none. Added to train (feedback-examples.ts).
 */
const FEEDBACK_ARGUMENTS = process.argv.flatMap((arg, i) => (arg === '--feedback' ? [process.argv[i + 1] ?? ''] : []));
const NO_FEEDBACK = FEEDBACK_ARGUMENTS.includes('none');
const MEDIUM_FALSE_ALARMS = 0.02;
const HIGH_FALSE_ALARMS = 0.005;
const NOMINATIVE = FEATURE_NAMES.indexOf('cue_nominative');

/**
 * The reports' train examples (builders/screening/feedback-examples.ts), matched against the train corpus plus the
 * marks they name, and what the model file records of them: the files with their SHA-256, the counts, the weight.
 */
async function feedbackOf(): Promise<{ examples: LabelledExample[]; record?: Record<string, unknown> }> {
  const files = NO_FEEDBACK ? [] : feedbackFiles(FEEDBACK_ARGUMENTS);
  if (files.length === 0) return { examples: [] };
  const { reports, files: read } = readFeedback(files);
  const batch = feedbackMarkBatch(reports);
  const corpus = await loadCorpus(
    'registered',
    {},
    { termMarks: true, register: REGISTER, ...(batch ? { extra: { batch, source: 'feedback-marks' } } : {}) },
  );
  const current = shippedBrandUseModel();
  const found = await feedbackExamples(corpus.screener, reports, (f) => current.probability(f) >= current.medium);
  const kinds = Object.fromEntries(
    ['false_alarm', 'missed_brand', 'wrong_mark'].map((k) => [k, reports.filter((r) => r.kind === k).length]),
  );
  return {
    examples: found.examples,
    record: {
      files: read,
      reports: reports.length,
      kinds,
      used: found.used,
      unmatched: found.unmatched,
      examples: { total: found.examples.length, positive: found.examples.filter((e) => e.label === 1).length },
      weight: FEEDBACK_WEIGHT,
      featuresSha256: featureFingerprint(found.examples),
      accounts: new Set(reports.map((r) => r.provenance.account)).size,
      rule: `each report's mark (a false alarm's unquoted mark: the matches model ${current.version} raises at 中 or above) labelled as reported, in every fold's fit, ${FEEDBACK_WEIGHT} rows each; the reports' marks added to the train corpus as live word marks, classes from their titles`,
    },
  };
}

function hashOf(titles: readonly LabelledTitle[]): string {
  return createHash('sha256')
    .update(titles.map((t) => `${t.set}\t${t.id}\t${t.title}\t${t.brand}`).join('\n'))
    .digest('hex');
}

/** Leaf values to 7 significant digits for the data file; thresholds stay exact (a rounded one could cross a value). */
function compactTree(tree: TreeData): TreeData {
  return { ...tree, value: tree.value.map((v) => Number(v.toPrecision(7))) };
}

/** The brand-removed titles among some titles, each with its matches scored by `probabilityOf`. */
function removedTitlesScored(
  removed: SplitTitles['removed'],
  titles: readonly LabelledTitle[],
  byTitle: readonly LabelledExample[][],
  probabilityOf: (example: LabelledExample, index: number) => number,
): (ScoredTitle & { title: string; marks: string[] })[] {
  const removedIds = new Set(removed.map((t) => t.id));
  const out: (ScoredTitle & { title: string; marks: string[] })[] = [];
  let index = 0;
  titles.forEach((t, i) => {
    const list = byTitle[i]!;
    const scored = list.map((e, k) => ({
      p: probabilityOf(e, index + k),
      label: e.label,
      nominative: e.features[NOMINATIVE] === 1,
    }));
    index += list.length;
    if (removedIds.has(t.id))
      out.push({ group: t.group, scored, title: t.title, marks: list.map((e) => e.match.mark) });
  });
  return out;
}

/** The brand-removed titles of validation, scored by the fitted model, and of the cross-fit titles, out of fold. */
function removedTitlesOfBoth(
  fitted: FittedTrees,
  splits: { train: SplitTitles; validation: SplitTitles },
  examples: Pick<
    Awaited<ReturnType<typeof trainingExamples>>,
    'validationTitles' | 'validationByTitle' | 'crossFitTitles' | 'crossFitByTitle'
  >,
): (ScoredTitle & { title: string; marks: string[] })[] {
  const fit = provisional(fitted);
  const { a, b } = fitted.platt;
  return [
    ...removedTitlesScored(splits.validation.removed, examples.validationTitles, examples.validationByTitle, (e) =>
      fit.probability(e.features),
    ),
    ...removedTitlesScored(
      splits.train.removed,
      examples.crossFitTitles,
      examples.crossFitByTitle,
      (_, i) => 1 / (1 + Math.exp(-(a * fitted.crossFitMargins[i]! + b))),
    ),
  ];
}

/** The 中 and 高 thresholds of the fitted model, from brand-removed titles it was not fitted on (step 4 above). */
function thresholdsOn(removedAll: readonly (ScoredTitle & { title: string; marks: string[] })[]): {
  medium: number;
  high: number;
} {
  if (process.env.SHOW_FALSE_ALARMS) {
    const worst = removedAll.flatMap((t) =>
      t.scored.flatMap((e, k) => (e.label === 0 ? [{ p: e.p, mark: t.marks[k], title: t.title }] : [])),
    );
    for (const w of worst.sort((a, b) => b.p - a.p).slice(0, 60))
      console.log(`${w.p.toFixed(3)}\t${w.mark}\t${w.title}`);
  }
  // The lowest threshold within each budget: the most recall the budget buys. Raising 中 further, to just under the
  // lowest validation brand it keeps, fitted the threshold to the validation titles (test recall 94.7% where
  // validation said 98.4%: the threshold sat on a crowd of ordinary-word brands' scores).
  const medium = thresholdFor(removedAll, MEDIUM_FALSE_ALARMS, false);
  const high = Math.max(medium, thresholdFor(removedAll, HIGH_FALSE_ALARMS, true));
  return { medium, high };
}

async function main(): Promise<void> {
  const started = Date.now();
  if (HOLD_OUT && OUT === SHIPPED_OUT)
    throw new Error('--hold-out needs --out: the shipped model is fitted on every set');
  checkFitter();
  const splits = HOLD_OUT ? holdOutSet(splitTitles(), HOLD_OUT).kept : splitTitles();
  if (HOLD_OUT) countPlainWordsOf(labelledTitles().filter((t) => t.set !== HOLD_OUT));
  const examples = await trainingExamples(splits, { register: REGISTER });
  if (NO_CROSS_FIT) {
    examples.crossFitTitles = [];
    examples.crossFitByTitle = [];
  }
  const crossFit = examples.crossFitByTitle.flat();
  const { corpus, trainCorpus, made, trainTitles, validationTitles, train, validation, crossFitTitles } = examples;
  const trainRemovedIds = new Set(splits.train.removed.map((t) => t.id));

  const feedback = await feedbackOf();
  const fitted = fitTrees([...train, ...feedback.examples], validation, crossFit, FIT_OPTIONS);
  const { medium, high } = thresholdsOn(removedTitlesOfBoth(fitted, splits, examples));

  const trees = fitted.trees.map(compactTree);
  const digest = createHash('sha256')
    .update(JSON.stringify([fitted.init, fitted.platt, trees, medium, high]))
    .digest('hex');
  const version = `${new Date().toISOString().slice(0, 10)}-${digest.slice(0, 8)}`;
  const count = (titles: readonly LabelledTitle[], set: string) => titles.filter((t) => t.set === set).length;
  const model = {
    version,
    about:
      'Brand-use model of batch screening: gradient-boosted trees over shared/screening/brand-use-features.ts, Platt-scaled. Written by npm run train:screen; do not edit by hand.',
    command: 'npm run train:screen',
    features: FEATURE_NAMES,
    thresholds: { medium: Number(medium.toFixed(4)), high: Number(high.toFixed(4)) },
    trainedOn: {
      data: LABELLED_SETS.filter((set) => set !== HOLD_OUT).map((set) => `test/fixtures/titles/${set}`),
      corpus: `registered: ${REGISTER ? `the register-scale marks in ${path.relative(process.cwd(), REGISTER)}, ` : ''}the sample corpus and every labelled brand (${corpus.marks} US marks); train titles also against the common terms of goods with an unlisted word as marks (${trainCorpus.marks - corpus.marks})`,
      ...(REGISTER
        ? {
            register: {
              file: path.relative(process.cwd(), REGISTER),
              sha256: createHash('sha256').update(readFileSync(REGISTER)).digest('hex'),
              from: 'npm run data:register-scale -- --marks 1000000 --seed 43, sliced by builders/build-register-slice.ts',
            },
          }
        : {}),
      split: { seed: SPLIT_SEED, by: 'brand group, SHA-256 of seed and group: 60% train, 20% validation, 20% test' },
      trainTitles: {
        branded: splits.train.branded.length,
        brandRemoved: splits.train.removed.length,
        made: Object.fromEntries(Object.entries(made).map(([rule, titles]) => [rule, titles.length])),
        flipkart: count(splits.train.branded, 'flipkart-dev'),
        amazonGoogle: count(splits.train.branded, 'amazon-google'),
        markup: count(splits.train.branded, 'markup-amazon'),
        brands: splits.brands.train.size,
      },
      trainExamples: { total: train.length, positive: train.filter((e) => e.label === 1).length },
      trainSha256: hashOf(trainTitles),
      trainFeaturesSha256: featureFingerprint(train),
      ...(feedback.record ? { feedback: feedback.record } : {}),
      validationTitles: {
        branded: splits.validation.branded.length,
        brandRemoved: splits.validation.removed.length,
        brands: splits.brands.validation.size,
      },
      validationExamples: { total: validation.length, positive: validation.filter((e) => e.label === 1).length },
      validationSha256: hashOf(validationTitles),
      validationFeaturesSha256: featureFingerprint(validation),
      crossFit: {
        folds: CROSS_FIT_FOLDS,
        titles: crossFitTitles.length,
        brandRemoved: crossFitTitles.filter((t) => trainRemovedIds.has(t.id)).length,
        brands: new Set(crossFitTitles.map((t) => t.group)).size,
        examples: { total: crossFit.length, positive: crossFit.filter((e) => e.label === 1).length },
        featuresSha256: featureFingerprint(crossFit),
      },
      trees: {
        ...fitted.chosen,
        tried: fitted.tried,
        params: fitted.params,
        fitter: 'builders/screening/fit-trees.py (sklearn GradientBoostingClassifier)',
      },
      thresholdRule: `medium: lowest probability at which at most ${MEDIUM_FALSE_ALARMS * 100}% of the brand-removed titles of validation and of the cross-fit train titles (each scored by trees fitted without its fold) carry a conflict labelled no brand use, the most recall within that budget; high: the same at ${HIGH_FALSE_ALARMS * 100}%, nominative uses aside; each the ${THRESHOLD_CONFIDENCE} quantile over ${THRESHOLD_DRAWS} sets of those titles drawn by brand with replacement (seed ${THRESHOLD_SEED}), so that the budget holds on new brands in nine draws of ten`,
    },
    init: fitted.init,
    learningRate: fitted.learningRate,
    platt: fitted.platt,
    trees,
  };
  writeFileSync(OUT, `${JSON.stringify(model)}\n`);
  console.log(
    `model ${version}: ${train.length} examples${feedback.examples.length ? ` and ${feedback.examples.length} from sellers' reports` : ''} (${model.trainedOn.trainExamples.positive} brand uses), ${trees.length} trees of depth ${fitted.chosen.depth} (leaves of ${fitted.chosen.minSamplesLeaf}+), thresholds 中 ${model.thresholds.medium} 高 ${model.thresholds.high}; ${((Date.now() - started) / 1000).toFixed(1)} s -> ${path.relative(process.cwd(), OUT)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
