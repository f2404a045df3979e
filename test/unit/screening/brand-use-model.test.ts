/**
 * The brand-use model's inference: trees walked as scikit-learn walks them (float32 features, `<=` goes left), the
 * summed margin Platt-scaled, and a model fitted on other features refused. The shipped model's trees are checked
 * against scikit-learn's own margins when `npm run train:screen` writes them (builders/screening/fit-trees.py).
 */
import { FEATURE_COUNT, FEATURE_NAMES } from '../../../shared/screening/brand-use-features';
import { BrandUseModel, shippedBrandUseModel, type BrandUseModelData } from '../../../shared/screening/brand-use-model';
import modelData from '../../../data/screening/brand-use-model.json';
import { seededRandom } from '../../../builders/synthetic-uspto/random';

const DISTANCE = FEATURE_NAMES.indexOf('distance');
const FIRST = FEATURE_NAMES.indexOf('pos_first');

/** Two stumps: one on `distance` at 0.1, one on `pos_first` at 0.5. */
function model(overrides: Partial<BrandUseModelData> = {}): BrandUseModel {
  return new BrandUseModel({
    version: 'test',
    features: FEATURE_NAMES,
    init: -1,
    learningRate: 0.5,
    trees: [
      { feature: [DISTANCE, -1, -1], threshold: [0.1, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 2, -2] },
      { feature: [FIRST, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 0, 4] },
    ],
    platt: { a: 1, b: 0 },
    thresholds: { medium: 0.3, high: 0.8 },
    trainedOn: {},
    ...overrides,
  });
}

function features(values: Partial<Record<number, number>>): Float64Array {
  const out = new Float64Array(FEATURE_COUNT);
  for (const [i, v] of Object.entries(values)) out[Number(i)] = v!;
  return out;
}

describe('BrandUseModel', () => {
  it('sums the leaves each tree reaches, times the learning rate, onto the initial margin', () => {
    const m = model();

    expect(m.margin(features({ [DISTANCE]: 0, [FIRST]: 0 }))).toBeCloseTo(-1 + 0.5 * 2 + 0, 12);
    expect(m.margin(features({ [DISTANCE]: 2, [FIRST]: 1 }))).toBeCloseTo(-1 - 0.5 * 2 + 0.5 * 4, 12);
  });

  it('reads a feature as float32, as scikit-learn does: 0.1 goes right of a threshold just above float64 0.1', () => {
    // float32(0.1) = 0.100000001490116...: above this threshold, where float64 0.1 is below it.
    const m = model({
      trees: [
        {
          feature: [DISTANCE, -1, -1],
          threshold: [0.1 + 1e-12, 0, 0],
          left: [1, -1, -1],
          right: [2, -1, -1],
          value: [0, 1, -1],
        },
      ],
    });

    expect(m.margin(features({ [DISTANCE]: 0.1 }))).toBeCloseTo(-1 - 0.5, 12);
  });

  it('turns the margin into a probability with the Platt scaling', () => {
    const m = model({ platt: { a: 2, b: 0.5 } });
    const x = features({ [DISTANCE]: 0, [FIRST]: 1 });

    expect(m.probability(x)).toBeCloseTo(1 / (1 + Math.exp(-(2 * m.margin(x) + 0.5))), 12);
  });

  it('refuses a model fitted on another list of features, a tree that splits on none of them, or one that cannot be walked', () => {
    /** A stump on `feature` with the given children of its root and leaf values. */
    const stump = (feature: number, left: number, value: number[]) =>
      model({
        trees: [{ feature: [feature, -1, -1], threshold: [0, 0, 0], left: [left, -1, -1], right: [2, -1, -1], value }],
      });

    expect(() => model({ features: FEATURE_NAMES.slice(1) })).toThrow(/other features/);
    expect(() => stump(FEATURE_COUNT, 1, [0, 0, 0])).toThrow(/splits on feature/);
    // A child that points back at its parent would never reach a leaf.
    expect(() => stump(DISTANCE, 0, [0, 0, 0])).toThrow(/children out of order/);
    expect(() => stump(DISTANCE, 1, [0, Number.NaN, 0])).toThrow(/leaf 1 is NaN/);
    expect(() => stump(DISTANCE, 1, [0, 1, -1])).not.toThrow();
  });

  it('ships a model whose thresholds are ordered probabilities and whose answers are probabilities', () => {
    const shipped = shippedBrandUseModel();

    expect(0 < shipped.medium && shipped.medium <= shipped.high && shipped.high < 1).toBe(true);
    const p = shipped.probability(new Float64Array(FEATURE_COUNT));
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
  });

  it('walks trees of uneven depth, and the shipped trees, as a node-by-node walk of the trees as written does', () => {
    const data = modelData as BrandUseModelData;
    // The reference: each tree walked from its root by its own child arrays.
    const reference = (trees: BrandUseModelData['trees'], x: Float64Array, init: number, rate: number) => {
      let z = init;
      for (const tree of trees) {
        let node = 0;
        while (tree.left[node] !== -1)
          node = Math.fround(x[tree.feature[node]!]!) <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
        z += rate * tree.value[node]!;
      }
      return z;
    };
    // Depth 2 on the left, a leaf at depth 1 on the right; and a stump.
    const uneven: BrandUseModelData['trees'] = [
      {
        feature: [DISTANCE, FIRST, -1, -1, -1],
        threshold: [0.5, 0.5, 0, 0, 0],
        left: [1, 2, -1, -1, -1],
        right: [4, 3, -1, -1, -1],
        value: [0, 0, 1, 2, 3],
      },
      { feature: [FIRST, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 5, 7] },
    ];
    const small = model({ trees: uneven, learningRate: 1, init: 0 });
    for (const [d, f, expected] of [
      [0, 0, 1 + 5],
      [0, 1, 2 + 7],
      [1, 0, 3 + 5],
      [1, 1, 3 + 7],
    ] as const) {
      expect(small.margin(features({ [DISTANCE]: d, [FIRST]: f }))).toBe(expected);
    }
    const shipped = shippedBrandUseModel();
    const random = seededRandom(17);
    const thresholds = data.trees.flatMap((t) => t.threshold.filter((_, i) => t.left[i] !== -1));
    for (let n = 0; n < 300; n++) {
      // Values on, beside and between the trees' own thresholds, so that every branch is taken.
      const x = new Float64Array(FEATURE_COUNT).map(() => {
        const t = thresholds[Math.floor(random() * thresholds.length)]!;
        return random() < 0.3 ? t : t + (random() - 0.5) * 0.2;
      });
      expect(shipped.margin(x)).toBe(reference(data.trees, x, data.init, data.learningRate));
    }
  });
});
