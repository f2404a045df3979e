/**
 * The brand-use model: the probability that a title uses a matched mark as a brand, from the candidate's features
 * (brand-use-features.ts), by logistic regression. Its weights and the risk thresholds are data
 * (data/screening/brand-use-model.json), fitted and chosen by `npm run train:screen` on labelled titles, the
 * thresholds on a validation split no weight was fitted on; nothing here is set by hand.
 */
import modelData from '../../data/screening/brand-use-model.json';
import { FEATURE_COUNT, FEATURE_NAMES } from './brand-use-features';

export interface BrandUseModelData {
  version: string;
  features: readonly string[];
  intercept: number;
  weights: readonly number[];
  /** Probability from which a conflict counts (中), and from which it is a strong one (高). */
  thresholds: { medium: number; high: number };
  trainedOn: unknown;
}

export class BrandUseModel {
  private readonly weights: Float64Array;
  readonly intercept: number;
  readonly medium: number;
  readonly high: number;
  readonly version: string;

  constructor(data: BrandUseModelData) {
    if (data.features.length !== FEATURE_COUNT || data.features.some((name, i) => name !== FEATURE_NAMES[i])) {
      throw new Error(
        `brand-use model ${data.version} was fitted on other features than the engine computes: run npm run train:screen`,
      );
    }
    if (data.weights.length !== FEATURE_COUNT)
      throw new Error(`brand-use model ${data.version}: ${data.weights.length} weights for ${FEATURE_COUNT} features`);
    this.weights = Float64Array.from(data.weights);
    this.intercept = data.intercept;
    this.medium = data.thresholds.medium;
    this.high = data.thresholds.high;
    this.version = data.version;
  }

  probability(features: Float64Array): number {
    let z = this.intercept;
    const w = this.weights;
    for (let i = 0; i < FEATURE_COUNT; i++) z += w[i]! * features[i]!;
    return 1 / (1 + Math.exp(-z));
  }
}

let shipped: BrandUseModel | undefined;

/** The model shipped in data/screening/brand-use-model.json. */
export function shippedBrandUseModel(): BrandUseModel {
  shipped ??= new BrandUseModel(modelData as BrandUseModelData);
  return shipped;
}
