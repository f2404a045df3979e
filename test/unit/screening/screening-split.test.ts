/**
 * The split the brand-use model is fitted, chosen and judged on (builders/screening/screening-dataset.ts): no brand
 * in two splits, brand-removed titles free of their brand, and a held-out labelled set whose titles and brands the
 * model fitted without it never saw.
 */
import { brandKey, LABELLED_SETS, labelledTitles, makerName } from '../../../builders/screening/labelled-titles';
import {
  CROSS_FIT_FOLDS,
  crossFitFold,
  crossFitGroups,
  holdOutSet,
  namesBrand,
  splitTitles,
  type Split,
} from '../../../builders/screening/screening-dataset';

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

  it('puts one maker named several ways in one split', () => {
    const adobe = labelledTitles().filter((t) => /^adobe( software| systems inc)?$/i.test(t.brand));
    expect(new Set(adobe.map((t) => t.brand.toLowerCase()))).toEqual(
      new Set(['adobe', 'adobe software', 'adobe systems inc']),
    );
    expect(new Set(adobe.map((t) => t.group))).toEqual(new Set(['adobe']));
    const owner = new Map<string, Split>();
    for (const split of SPLITS)
      for (const t of splits[split].branded) {
        const maker = brandKey(makerName(t.brand));
        expect([maker, owner.get(maker) ?? split]).toEqual([maker, split]);
        owner.set(maker, split);
      }
  });

  it('takes the brand out of each brand-removed title and labels it with none', () => {
    for (const split of SPLITS)
      for (const t of splits[split].removed) {
        expect(t.brandKeys).toEqual([]);
        expect([t.title, namesBrand(t.title, t.brand)]).toEqual([t.title, false]);
      }
  });
});

describe('the cross-fitting folds of the train split', () => {
  const groups = crossFitGroups(splits.train);
  const trainGroups = new Set(splits.train.branded.map((t) => t.group));

  it('scores every train brand group out of fold but one that is a whole labelled set', () => {
    const markupGroups = new Set(splits.train.branded.filter((t) => t.set === 'markup-amazon').map((t) => t.group));
    expect(markupGroups).toEqual(new Set(['amazon']));
    expect(groups.has('amazon')).toBe(false);
    expect(groups.size).toBe(trainGroups.size - 1);
    for (const group of groups) expect(trainGroups.has(group)).toBe(true);
  });

  it('puts each group in one of the folds, of about equal size, the same way every run', () => {
    const sizes = new Array<number>(CROSS_FIT_FOLDS).fill(0);
    for (const group of groups) {
      const fold = crossFitFold(group);
      expect(fold).toBe(crossFitFold(group));
      expect(Number.isInteger(fold) && fold >= 0 && fold < CROSS_FIT_FOLDS).toBe(true);
      sizes[fold]! += 1;
    }
    for (const size of sizes) expect(size).toBeGreaterThan((0.7 * groups.size) / CROSS_FIT_FOLDS);
  });
});

describe('makerName', () => {
  it('takes the company-form words off the end of a name, never its first word', () => {
    expect(makerName('Avanquest Publishing USA Inc.')).toBe('Avanquest');
    expect(makerName('punch ! software')).toBe('punch');
    expect(makerName('Microsoft Corp')).toBe('Microsoft');
    expect(makerName('Sony Media')).toBe('Sony');
    expect(makerName('Software')).toBe('Software');
    expect(makerName('Media Group')).toBe('Media');
    expect(makerName('Radiant Bay')).toBe('Radiant Bay');
    expect(makerName('Games Workshop')).toBe('Games Workshop');
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
