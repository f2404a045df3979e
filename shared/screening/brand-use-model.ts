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

/**
 * The trees laid end to end in typed arrays, one slot per node: the feature a node splits on (-1 at a leaf), its
 * threshold, its children's slots, and at a leaf its value times the learning rate. Each tree's children stand after
 * their parent (as scikit-learn writes them, and checked here), so a walk always ends at a leaf.
 */
interface PackedTrees {
  roots: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  left: Int32Array;
  right: Int32Array;
  leaf: Float64Array;
}

function packTrees(data: BrandUseModelData): PackedTrees {
  const nodes = data.trees.reduce((sum, tree) => sum + tree.feature.length, 0);
  const packed: PackedTrees = {
    roots: new Int32Array(data.trees.length),
    feature: new Int32Array(nodes),
    threshold: new Float64Array(nodes),
    left: new Int32Array(nodes),
    right: new Int32Array(nodes),
    leaf: new Float64Array(nodes),
  };
  let at = 0;
  data.trees.forEach((tree, t) => {
    const size = tree.feature.length;
    packed.roots[t] = at;
    for (let i = 0; i < size; i++) {
      const slot = at + i;
      const finite = (value: number | undefined, what: string) => {
        if (value === undefined || !Number.isFinite(value))
          throw new Error(`brand-use model ${data.version}: tree ${t}'s ${what} ${i} is ${value}`);
        return value;
      };
      if (tree.left[i] === -1) {
        packed.feature[slot] = -1;
        packed.leaf[slot] = data.learningRate * finite(tree.value[i], 'leaf');
        continue;
      }
      const feature = tree.feature[i]!;
      if (!Number.isInteger(feature) || feature < 0 || feature >= FEATURE_COUNT)
        throw new Error(`brand-use model ${data.version}: tree ${t} splits on feature ${feature}`);
      const [left, right] = [tree.left[i]!, tree.right[i]!];
      if (!(left > i && left < size && right > i && right < size))
        throw new Error(`brand-use model ${data.version}: tree ${t}'s node ${i} has children out of order`);
      packed.feature[slot] = feature;
      packed.threshold[slot] = finite(tree.threshold[i], 'threshold');
      packed.left[slot] = at + left;
      packed.right[slot] = at + right;
    }
    at += size;
  });
  return packed;
}

export class BrandUseModel {
  /**
   * The trees walked from typed arrays by one small loop (packTrees), which the JIT optimises within the first few
   * hundred calls. Trees compiled into JavaScript functions of constants ran faster once optimised (3 us a vector
   * against 8), but only after some 50,000 vectors: an instance met each new title's vectors at 20 to 50 us until
   * then, a sixth of its time on titles new to it.
   */
  private readonly trees: PackedTrees;
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
    this.trees = packTrees(data);
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
    this.asFloat32.set(features);
    return this.walk();
  }

  /**
   * The margin of the features in `asFloat32`: each tree walked from its root, `x <= threshold` to the left (a NaN
   * goes right, as in scikit-learn's walk of a tree without missing values), its leaf added in tree order.
   */
  private walk(): number {
    const x = this.asFloat32;
    const { roots, feature, threshold, left, right, leaf } = this.trees;
    let z = this.init;
    for (let t = 0; t < roots.length; t++) {
      let node = roots[t]!;
      for (let f = feature[node]!; f >= 0; f = feature[node]!)
        node = x[f]! <= threshold[node]! ? left[node]! : right[node]!;
      z += leaf[node]!;
    }
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
    const z = this.walk();
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
