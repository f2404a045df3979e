/**
 * The brand-use model: the probability that a title uses a matched mark as a brand, from the candidate's features
 * (brand-use-features.ts), by gradient-boosted regression trees (they weigh the features together: a dual-use word
 * first in a title, a common word in the mark's own class), their summed margin Platt-scaled into a probability.
 * Trees, scaling and risk thresholds are data (data/screening/brand-use-model.json), fitted and chosen by
 * `npm run train:screen` on labelled titles: the trees on the train split; their depth and number, the scaling and
 * the thresholds on a validation split no tree was fitted on. Nothing here is set by hand.
 */
import modelData from '../../data/screening/brand-use-model.json';
import { FEATURE_COUNT, FEATURE_NAMES } from './brand-use-features';

/** One regression tree as sklearn writes it: node arrays, a leaf where `left` is -1, `x <= threshold` goes left. */
export interface TreeData {
  feature: readonly number[];
  threshold: readonly number[];
  left: readonly number[];
  right: readonly number[];
  value: readonly number[];
}

export interface BrandUseModelData {
  version: string;
  features: readonly string[];
  /** The margin before any tree (the log-odds of a brand use in the train split). */
  init: number;
  learningRate: number;
  trees: readonly TreeData[];
  /** probability = 1 / (1 + exp(-(a * margin + b))), fitted on validation. */
  platt: { a: number; b: number };
  /** Probability from which a conflict counts (中), and from which it is a strong one (高). */
  thresholds: { medium: number; high: number };
  trainedOn: unknown;
}

/** Feature vectors whose probability a model remembers; past it, it starts afresh. */
const REMEMBERED_VECTORS = 100_000;

interface RememberedVector {
  readonly bits: Uint32Array;
  readonly probability: number;
  /** Another vector of the same hash. */
  readonly next: RememberedVector | undefined;
}

function sameBits(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Trees per compiled function: each stays small enough for the JIT to optimise it. */
const TREES_PER_FUNCTION = 32;

/** A number as a literal that reads back as the same double (`String` gives the shortest such text). */
function literal(value: number, what: string): string {
  if (!Number.isFinite(value)) throw new Error(`brand-use model: ${what} is ${value}`);
  return String(value);
}

/**
 * The trees as JavaScript source, one expression per tree (nested `x[f] <= t ? left : right`, the leaves' values
 * times the learning rate as literals), added onto `z` in tree order, so the sum is the same double as a walk of
 * the node arrays gives. A NaN feature goes right, as in scikit-learn's walk of a tree without missing values.
 */
function treeSource(data: BrandUseModelData, t: number): string {
  const tree = data.trees[t]!;
  const node = (i: number, depth: number): string => {
    if (depth > 64) throw new Error(`brand-use model ${data.version}: tree ${t} is deeper than 64`);
    if (tree.left[i] === -1) return literal(data.learningRate * tree.value[i]!, `tree ${t}'s leaf ${i}`);
    const feature = tree.feature[i]!;
    if (!Number.isInteger(feature) || feature < 0 || feature >= FEATURE_COUNT)
      throw new Error(`brand-use model ${data.version}: tree ${t} splits on feature ${feature}`);
    const threshold = literal(tree.threshold[i]!, `tree ${t}'s threshold ${i}`);
    return `(x[${feature}] <= ${threshold} ? ${node(tree.left[i]!, depth + 1)} : ${node(tree.right[i]!, depth + 1)})`;
  };
  return `z += ${node(0, 0)};`;
}

export class BrandUseModel {
  /**
   * The trees compiled once, at load, into plain functions of the float32 features (treeSource): a walk of a few
   * hundred trees through node arrays was a sixth of screening's time, the compiled comparisons of constants a
   * fraction of it. The source is built from the model file's numbers only, each checked to be a finite number or
   * a feature index.
   */
  private readonly compiled: readonly ((x: Float32Array, z: number) => number)[];
  /** The features as float32, as scikit-learn reads them (filled from the caller's array on each call). */
  private readonly asFloat32 = new Float32Array(FEATURE_COUNT);
  /** The same bytes, which `remembered` is keyed by. */
  private readonly asBits = new Uint32Array(this.asFloat32.buffer);
  /** Probability by a hash of the float32 feature vector's bits, each entry with the bits it is for (probability()). */
  private readonly remembered = new Map<number, RememberedVector>();
  private readonly init: number;
  private readonly plattA: number;
  private readonly plattB: number;
  readonly medium: number;
  readonly high: number;
  readonly version: string;

  constructor(data: BrandUseModelData) {
    if (data.features.length !== FEATURE_COUNT || data.features.some((name, i) => name !== FEATURE_NAMES[i])) {
      throw new Error(
        `brand-use model ${data.version} was fitted on other features than the engine computes: run npm run train:screen`,
      );
    }
    const compiled: ((x: Float32Array, z: number) => number)[] = [];
    for (let from = 0; from < data.trees.length; from += TREES_PER_FUNCTION) {
      const body: string[] = [];
      for (let t = from; t < Math.min(data.trees.length, from + TREES_PER_FUNCTION); t++)
        body.push(treeSource(data, t));
      compiled.push(
        new Function('x', 'z', `"use strict";\n${body.join('\n')}\nreturn z;`) as (typeof compiled)[number],
      );
    }
    this.compiled = compiled;
    this.init = data.init;
    this.plattA = data.platt.a;
    this.plattB = data.platt.b;
    this.medium = data.thresholds.medium;
    this.high = data.thresholds.high;
    this.version = data.version;
  }

  /** The trees' summed margin, before scaling. */
  margin(features: Float64Array): number {
    // sklearn's trees read features as float32: so does this walk, or a value next to a threshold goes astray.
    const x = this.asFloat32;
    x.set(features);
    let z = this.init;
    for (const part of this.compiled) z = part(x, z);
    return z;
  }

  probability(features: Float64Array): number {
    // Many matches of a title, and of the titles after it, have the same features (one text filed many times, in
    // the same classes): their probability is the same number, so it is worked out once for each float32 vector the
    // trees read and remembered (bounded; started afresh when full).
    const x = this.asFloat32;
    x.set(features);
    const bits = this.asBits;
    let hash = 0x811c9dc5;
    for (let i = 0; i < bits.length; i++) hash = Math.imul(hash ^ bits[i]!, 0x01000193) ^ (hash >>> 15);
    const first = this.remembered.get(hash);
    for (let known = first; known !== undefined; known = known.next)
      if (sameBits(known.bits, bits)) return known.probability;
    let z = this.init;
    for (const part of this.compiled) z = part(x, z);
    const probability = 1 / (1 + Math.exp(-(this.plattA * z + this.plattB)));
    if (this.remembered.size >= REMEMBERED_VECTORS) this.remembered.clear();
    this.remembered.set(hash, { bits: bits.slice(), probability, next: first });
    return probability;
  }
}

let shipped: BrandUseModel | undefined;

/** The model shipped in data/screening/brand-use-model.json. */
export function shippedBrandUseModel(): BrandUseModel {
  shipped ??= new BrandUseModel(modelData as BrandUseModelData);
  return shipped;
}
