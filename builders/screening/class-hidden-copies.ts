/**
 * Train matches of a mark with classes on record, again as if the mark had none (same label).
 *
 * Every labelled brand is registered with the classes its titles' product words give, so without these copies the
 * only marks with no class on record are other sample marks, nearly never the title's brand: the model learns that a
 * mark without classes is no brand use. That is a fact of how the train corpus was made, not of titles, and it is
 * wrong for a corpus whose marks mostly have no classes (the shipped sample corpus: "Pilot Ball Pen" against a PILOT
 * of no class read as "Shell Necklace").
 */
import { FEATURE_NAMES, type FeatureName } from '../../shared/screening/brand-use-features';
import type { LabelledExample } from './screening-dataset';

/** The features that say how the mark's classes stand to the item's (brand-use-features.ts), all 0 without classes. */
const CLASS_FEATURES: readonly FeatureName[] = [
  'class_same',
  'class_related',
  'class_other',
  'class_strength',
  'dual_use_x_class_same',
  'generic_x_class_same',
  'freq_x_class_same',
  'class_other_x_first',
  'english_x_class_same',
];
const CLASS_INDEXES = CLASS_FEATURES.map((name) => FEATURE_NAMES.indexOf(name));
const RELATION_INDEXES = (['class_same', 'class_related', 'class_other'] as const).map((n) => FEATURE_NAMES.indexOf(n));
const MARK_CLASS_NONE = FEATURE_NAMES.indexOf('mark_class_none');

/** The features of the same match had the mark no class on record. */
export function withClassesHidden(features: Float64Array): Float64Array {
  const hidden = Float64Array.from(features);
  for (const index of CLASS_INDEXES) hidden[index] = 0;
  hidden[MARK_CLASS_NONE] = 1;
  return hidden;
}

/** Whether the match's mark has classes and the item's classes are known (a relation other than unknown). */
export function hasClassRelation(features: Float64Array): boolean {
  return RELATION_INDEXES.some((index) => features[index] === 1);
}

/** A copy, with the mark's classes hidden, of every train match whose mark stands in a class relation to the item. */
export function classHiddenCopies(train: readonly LabelledExample[]): LabelledExample[] {
  return train
    .filter((e) => hasClassRelation(e.features))
    .map((e) => ({ ...e, features: withClassesHidden(e.features) }));
}
