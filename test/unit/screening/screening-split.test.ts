/**
 * The split the brand-use model is fitted, chosen and judged on (builders/screening/screening-dataset.ts): no brand
 * in two splits, brand-removed titles free of their brand, and a held-out labelled set whose titles and brands the
 * model fitted without it never saw.
 */
import { brandKey, LABELLED_SETS } from '../../../builders/screening/labelled-titles';
import { holdOutSet, namesBrand, splitTitles, type Split } from '../../../builders/screening/screening-dataset';

const splits = splitTitles();
const SPLITS: readonly Split[] = ['train', 'validation', 'test'];

describe('the labelled titles split by brand', () => {
  it('puts every brand in one split only', () => {
    const owner = new Map<string, Split>();
    for (const split of SPLITS)
      for (const t of splits[split].branded)
        for (const key of t.brandKeys) {
          expect([key, owner.get(key) ?? split]).toEqual([key, split]);
          owner.set(key, split);
        }
    expect(owner.size).toBeGreaterThan(1000);
    expect(new Set(splits.train.branded.map((t) => t.set))).toEqual(new Set(LABELLED_SETS));
  });

  it('takes the brand out of each brand-removed title and labels it with none', () => {
    for (const split of SPLITS)
      for (const t of splits[split].removed) {
        expect(t.brandKeys).toEqual([]);
        expect([t.title, namesBrand(t.title, t.brand)]).toEqual([t.title, false]);
      }
  });
});

describe('holdOutSet', () => {
  const { kept, heldOut } = holdOutSet(splits, 'amazon-google');

  it('keeps no title of the held-out set in any split', () => {
    for (const split of SPLITS)
      for (const t of [...kept[split].branded, ...kept[split].removed]) expect(t.set).not.toBe('amazon-google');
    expect(kept.train.branded.length).toBeGreaterThan(1000);
  });

  it("judges on the set's train and validation titles whose brand no kept train title has, never its test titles", () => {
    const seen = new Set(kept.train.branded.flatMap((t) => t.brandKeys));
    const testIds = new Set([...splits.test.branded, ...splits.test.removed].map((t) => t.id));
    expect(heldOut.branded.length).toBeGreaterThan(100);
    expect(heldOut.removed.length).toBeGreaterThan(100);
    for (const t of [...heldOut.branded, ...heldOut.removed]) {
      expect(t.set).toBe('amazon-google');
      expect(seen.has(brandKey(t.brand))).toBe(false);
      expect(testIds.has(t.id)).toBe(false);
    }
  });
});
