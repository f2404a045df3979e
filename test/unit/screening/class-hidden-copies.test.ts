/**
 * The train copies of a match "as if the mark had no class on record" (builders/screening/class-hidden-copies.ts)
 * must be exactly the features the engine writes for a mark with no classes: otherwise the model learns a state no
 * title can be in.
 */
import { classHiddenCopies, withClassesHidden } from '../../../builders/screening/class-hidden-copies';
import type { LabelledExample } from '../../../builders/screening/screening-dataset';
import { FEATURE_COUNT, FEATURE_NAMES, fillFeatures } from '../../../shared/screening/brand-use-features';
import { RunTable } from '../../../shared/screening/candidates';
import type { RunMatch } from '../../../shared/screening/run-matches';
import { TitleContext } from '../../../shared/screening/title-context';
import { wordsOfTitle } from '../../../shared/screening/title-words';

function matchOf(mark: string, niceClasses: string[]): RunMatch {
  return {
    mark,
    serial: 'US-TEST-1',
    niceClasses,
    isLive: true,
    kind: 'exact',
    distance: 0,
    tro: false,
    troOnly: false,
    cn: false,
    ownerRegistrations: 1,
    ownerClasses: niceClasses,
  };
}

/** The features of the title's first candidate, as a mark of `classes`. */
function featuresOf(title: string, classes: string[], nice?: string): Float64Array {
  const words = wordsOfTitle(title);
  const context = new TitleContext(nice ? { title, nice } : { title }, words);
  const candidate = new RunTable().candidatesOf(words)[0]!;
  const out = new Float64Array(FEATURE_COUNT);
  fillFeatures(context, candidate, matchOf(candidate.run.joined, classes), { evasion: false, runHasExact: true }, out);
  return out;
}

describe('withClassesHidden', () => {
  it.each([
    ['Coach Leather Crossbody Handbag', ['18', '25'], undefined],
    ['Pilot Ball Pen', ['16'], undefined],
    ['Dove Grey Cotton T-Shirt for Men', ['03', '30'], undefined],
    ['Ring Video Doorbell Pro 2', ['09'], undefined],
    ['Apple Cider Vinegar Gummies', ['09'], undefined],
    ['Nike running shoes', ['25'], '25'],
    ['Stanley adjustable wrench set', ['21'], '08'],
  ])('%s: the features of a mark with no classes', (title, classes, nice) => {
    const withClasses = featuresOf(title, classes, nice);
    const without = featuresOf(title, [], nice);

    expect(Array.from(withClassesHidden(withClasses))).toEqual(Array.from(without));
  });

  it('changes features that say how the classes stand (the cases above are not all alike)', () => {
    const classed = featuresOf('Coach Leather Crossbody Handbag', ['18', '25']);

    expect(classed[FEATURE_NAMES.indexOf('class_same')]).toBe(1);
    expect(classed[FEATURE_NAMES.indexOf('mark_class_none')]).toBe(0);
  });
});

describe('classHiddenCopies', () => {
  const example = (features: Float64Array, label: 0 | 1) => ({ features, label }) as unknown as LabelledExample;

  it('copies each match whose mark stands in a class relation to the item, label kept, and no other', () => {
    const same = example(featuresOf('Coach Leather Crossbody Handbag', ['18', '25']), 1);
    const other = example(featuresOf('Apple Cider Vinegar Gummies', ['09']), 0);
    const none = example(featuresOf('Pilot Ball Pen', []), 0);

    const copies = classHiddenCopies([same, other, none]);

    expect(copies.map((c) => c.label)).toEqual([1, 0]);
    expect(Array.from(copies[0]!.features)).toEqual(Array.from(featuresOf('Coach Leather Crossbody Handbag', [])));
    expect(Array.from(copies[1]!.features)).toEqual(Array.from(featuresOf('Apple Cider Vinegar Gummies', [])));
  });
});
