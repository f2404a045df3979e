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

/** The deepest tree the engine lays out (a perfect tree of this depth has 2^depth leaves). */
const MAX_DEPTH = 10;

export class BrandUseModel {
  /**
   * Every tree laid out as a perfect binary tree of the model's depth, one after another: node i's children are
   * 2i + 1 (`x <= threshold`) and 2i + 2, so a walk is a fixed number of steps with no child arrays to read. A leaf
   * above the full depth becomes splits that always go left (threshold +Infinity), its value copied to every leaf
   * below it.
   */
  private readonly depth: number;
  private readonly feature: Int32Array;
  private readonly threshold: Float64Array;
  /** Leaf values times the learning rate, 2^depth per tree. */
  private readonly leaf: Float64Array;
  private readonly trees: number;
  /** The features as float32, as scikit-learn reads them (filled from the caller's array on each call). */
  private readonly asFloat32 = new Float32Array(FEATURE_COUNT);
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
    const depthOf = (tree: TreeData, node: number): number =>
      tree.left[node] === -1 ? 0 : 1 + Math.max(depthOf(tree, tree.left[node]!), depthOf(tree, tree.right[node]!));
    this.depth = Math.max(0, ...data.trees.map((tree) => depthOf(tree, 0)));
    if (this.depth > MAX_DEPTH) throw new Error(`brand-use model ${data.version}: trees deeper than ${MAX_DEPTH}`);
    const inner = 2 ** this.depth - 1;
    const leaves = 2 ** this.depth;
    this.trees = data.trees.length;
    this.feature = new Int32Array(this.trees * inner);
    this.threshold = new Float64Array(this.trees * inner);
    this.leaf = new Float64Array(this.trees * leaves);
    data.trees.forEach((tree, t) => {
      const place = (node: number, at: number, level: number): void => {
        const isLeaf = tree.left[node] === -1;
        if (level === this.depth) {
          this.leaf[t * leaves + at - inner] = data.learningRate * tree.value[node]!;
          return;
        }
        const feature = isLeaf ? 0 : tree.feature[node]!;
        if (feature < 0 || feature >= FEATURE_COUNT)
          throw new Error(`brand-use model ${data.version}: tree ${t} splits on feature ${feature}`);
        this.feature[t * inner + at] = feature;
        this.threshold[t * inner + at] = isLeaf ? Number.POSITIVE_INFINITY : tree.threshold[node]!;
        place(isLeaf ? node : tree.left[node]!, 2 * at + 1, level + 1);
        place(isLeaf ? node : tree.right[node]!, 2 * at + 2, level + 1);
      };
      place(0, 0, 0);
    });
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
    const { feature, threshold, leaf, depth, trees } = this;
    const inner = 2 ** depth - 1;
    let z = this.init;
    for (let t = 0, base = 0, leafBase = -inner; t < trees; t++, base += inner, leafBase += inner + 1) {
      let node = 0;
      for (let level = 0; level < depth; level++) {
        const i = base + node;
        // A NaN feature goes right, as in scikit-learn's walk of a tree without missing-value support.
        node = x[feature[i]!]! <= threshold[i]! ? 2 * node + 1 : 2 * node + 2;
      }
      z += leaf[leafBase + node]!;
    }
    return z;
  }

  probability(features: Float64Array): number {
    return 1 / (1 + Math.exp(-(this.plattA * this.margin(features) + this.plattB)));
  }
}

let shipped: BrandUseModel | undefined;

/** The model shipped in data/screening/brand-use-model.json. */
export function shippedBrandUseModel(): BrandUseModel {
  shipped ??= new BrandUseModel(modelData as BrandUseModelData);
  return shipped;
}
