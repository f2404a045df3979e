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

export class BrandUseModel {
  // Every tree's nodes in one set of arrays; child indices are absolute, a leaf's feature is -1.
  private readonly feature: Int32Array;
  private readonly threshold: Float64Array;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  /** Leaf values times the learning rate. */
  private readonly value: Float64Array;
  private readonly roots: Int32Array;
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
    const nodes = data.trees.reduce((n, t) => n + t.feature.length, 0);
    this.feature = new Int32Array(nodes);
    this.threshold = new Float64Array(nodes);
    this.left = new Int32Array(nodes);
    this.right = new Int32Array(nodes);
    this.value = new Float64Array(nodes);
    this.roots = new Int32Array(data.trees.length);
    let base = 0;
    data.trees.forEach((tree, t) => {
      this.roots[t] = base;
      for (let i = 0; i < tree.feature.length; i++) {
        const leaf = tree.left[i] === -1;
        const feature = tree.feature[i]!;
        if (!leaf && (feature < 0 || feature >= FEATURE_COUNT))
          throw new Error(`brand-use model ${data.version}: tree ${t} splits on feature ${feature}`);
        this.feature[base + i] = leaf ? -1 : feature;
        this.threshold[base + i] = tree.threshold[i]!;
        this.left[base + i] = leaf ? -1 : base + tree.left[i]!;
        this.right[base + i] = leaf ? -1 : base + tree.right[i]!;
        this.value[base + i] = data.learningRate * tree.value[i]!;
      }
      base += tree.feature.length;
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
    let z = this.init;
    const { feature, threshold, left, right, value, roots } = this;
    for (let t = 0; t < roots.length; t++) {
      let node = roots[t]!;
      let f = feature[node]!;
      while (f !== -1) {
        // sklearn's trees read features as float32: so does this walk, or a value next to a threshold goes astray.
        node = Math.fround(features[f]!) <= threshold[node]! ? left[node]! : right[node]!;
        f = feature[node]!;
      }
      z += value[node]!;
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
