/**
 * The brand-use model's fit (step 3 of builders/train-screening-model.ts): the examples written as matrices for
 * builders/screening/fit-trees.py (sklearn under /usr/bin/python3), its answer read back. Shared by the trainer and
 * by the test that fits a small model with and without a seller's report (test/integration/screening).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FEATURE_COUNT, FEATURE_NAMES } from '../../shared/screening/brand-use-features';
import { BrandUseModel, type TreeData } from '../../shared/screening/brand-use-model';
import { CROSS_FIT_FOLDS, crossFitFold, type LabelledExample } from './screening-dataset';

export const PYTHON = '/usr/bin/python3';
const FIT_TREES = path.join(__dirname, 'fit-trees.py');

export interface FittedTrees {
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

/** What the fit reads of an example: its features, label, weight and brand group (for the cross-fitting folds). */
export type FitExample = Pick<LabelledExample, 'features' | 'label' | 'weight'> & { title: { group: string } };

/** In every fold's fit: a train example of a brand group no cross-fit title belongs to. */
const EVERY_FOLD = 255;

function writeMatrix(dir: string, name: string, examples: readonly FitExample[], crossFit?: Set<string>): void {
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
export function checkFitter(): void {
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
 * and the margin scaled on validation and those together (fit-trees.py). `shape`: one depth and least leaf size
 * instead of choosing among six.
 */
export function fitTrees(
  train: readonly FitExample[],
  validation: readonly FitExample[],
  crossFit: readonly FitExample[],
  options: { seed: number; shape?: number[]; quiet?: boolean },
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
        seed: options.seed,
        folds: crossFit.length > 0 ? CROSS_FIT_FOLDS : 0,
        ...(options.shape ? { shape: options.shape } : {}),
      }),
    );
    const out = execFileSync(PYTHON, [FIT_TREES, dir], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', options.quiet ? 'ignore' : 'inherit'],
      env: { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' },
    });
    return JSON.parse(out) as FittedTrees;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fitted trees as a model, with placeholder thresholds (before they are chosen). */
export function provisional(fitted: FittedTrees): BrandUseModel {
  return new BrandUseModel({
    ...fitted,
    version: 'provisional',
    features: FEATURE_NAMES,
    thresholds: { medium: 0.5, high: 0.9 },
    trainedOn: {},
  });
}
