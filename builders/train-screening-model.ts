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
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FEATURE_COUNT, FEATURE_NAMES } from '../shared/screening/brand-use-features';
import { BrandUseModel, type TreeData } from '../shared/screening/brand-use-model';
import {
  CROSS_FIT_FOLDS,
  crossFitFold,
  featureFingerprint,
  holdOutSet,
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
const PYTHON = '/usr/bin/python3';
const FIT_TREES = path.join(__dirname, 'screening/fit-trees.py');
const TREE_SEED = Number(argument('--tree-seed') ?? 20261125);
if (!Number.isSafeInteger(TREE_SEED) || TREE_SEED < 0) throw new Error('--tree-seed: a whole number 0 or more');
/**
 * `--shape DEPTH,LEAF`: fit trees of that depth and least leaf size only, instead of choosing among six on
 * validation (the marketplace hold-out models take the shipped model's shape: a sixth of the fitting).
 */
const SHAPE = argument('--shape')?.split(',').map(Number);
if (SHAPE && (SHAPE.length !== 2 || !SHAPE.every((n) => Number.isSafeInteger(n) && n > 0)))
  throw new Error('--shape: DEPTH,LEAF, two whole numbers');
/**
 * `--no-cross-fit`: the scaling and thresholds on validation alone, without the five fold fits (the marketplace
 * hold-out models of `npm run eval:screen -- --hold-out`: a third of the fitting on two cores).
 */
const NO_CROSS_FIT = process.argv.includes('--no-cross-fit');
const MEDIUM_FALSE_ALARMS = 0.02;
const HIGH_FALSE_ALARMS = 0.005;
const NOMINATIVE = FEATURE_NAMES.indexOf('cue_nominative');

function hashOf(titles: readonly LabelledTitle[]): string {
  return createHash('sha256')
    .update(titles.map((t) => `${t.set}\t${t.id}\t${t.title}\t${t.brand}`).join('\n'))
    .digest('hex');
}

interface FittedTrees {
  init: number;
  learningRate: number;
  trees: TreeData[];
  platt: { a: number; b: number };
  chosen: {
    depth: number;
    minSamplesLeaf: number;
    trees: number;
    validationLogLoss: number;
    calibratedLogLoss: number;
    validationScaledOnCrossFit: number;
    crossFitLogLoss: number;
    crossFitScaledOnValidation: number;
  };
  tried: unknown;
  params: Record<string, number | number[]>;
  /** The cross-fit titles' matches, in order, each scored by trees fitted without its fold. */
  crossFitMargins: number[];
}

/** In every fold's fit: a train example of a brand group no cross-fit title belongs to. */
const EVERY_FOLD = 255;

function writeMatrix(dir: string, name: string, examples: readonly LabelledExample[], crossFit?: Set<string>): void {
  const x = new Float64Array(examples.length * FEATURE_COUNT);
  examples.forEach((e, i) => {
    x.set(e.features, i * FEATURE_COUNT);
  });
  writeFileSync(path.join(dir, `${name}.f64`), Buffer.from(x.buffer));
  writeFileSync(path.join(dir, `${name}.y`), Uint8Array.from(examples.map((e) => e.label)));
  writeFileSync(path.join(dir, `${name}.w`), Buffer.from(Float64Array.from(examples.map((e) => e.weight ?? 1)).buffer));
  if (crossFit)
    writeFileSync(
      path.join(dir, `${name}.fold`),
      Uint8Array.from(examples.map((e) => (crossFit.has(e.title.group) ? crossFitFold(e.title.group) : EVERY_FOLD))),
    );
}

/**
 * Fails at once, with what to install, when the fitter cannot run: the features of the train titles take minutes to
 * compute, and a missing scikit-learn would otherwise show only after them, as a Python traceback.
 */
function checkFitter(): void {
  try {
    execFileSync(PYTHON, ['-c', 'import sklearn, numpy'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `npm run train:screen fits its trees with scikit-learn under ${PYTHON}, which cannot import it: on Debian, apt-get install python3-sklearn`,
    );
  }
}

/**
 * The trees fitted on train, their number and depth chosen on validation, the cross-fit titles scored out of fold
 * and the margin scaled on validation and those together (fit-trees.py).
 */
function fitTrees(
  train: readonly LabelledExample[],
  validation: readonly LabelledExample[],
  crossFit: readonly LabelledExample[],
): FittedTrees {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'brand-use-'));
  const groups = new Set(crossFit.map((e) => e.title.group));
  try {
    writeMatrix(dir, 'train', train, groups);
    writeMatrix(dir, 'validation', validation);
    writeMatrix(dir, 'crossfit', crossFit, groups);
    writeFileSync(
      path.join(dir, 'meta.json'),
      JSON.stringify({
        features: FEATURE_COUNT,
        seed: TREE_SEED,
        folds: crossFit.length > 0 ? CROSS_FIT_FOLDS : 0,
        ...(SHAPE ? { shape: SHAPE } : {}),
      }),
    );
    const out = execFileSync(PYTHON, [FIT_TREES, dir], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' },
    });
    return JSON.parse(out) as FittedTrees;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function provisional(fitted: FittedTrees): BrandUseModel {
  return new BrandUseModel({
    ...fitted,
    version: 'provisional',
    features: FEATURE_NAMES,
    thresholds: { medium: 0.5, high: 0.9 },
    trainedOn: {},
  });
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

  const fitted = fitTrees(train, validation, crossFit);
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
    `model ${version}: ${train.length} examples (${model.trainedOn.trainExamples.positive} brand uses), ${trees.length} trees of depth ${fitted.chosen.depth} (leaves of ${fitted.chosen.minSamplesLeaf}+), thresholds 中 ${model.thresholds.medium} 高 ${model.thresholds.high}; ${((Date.now() - started) / 1000).toFixed(1)} s -> ${path.relative(process.cwd(), OUT)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
