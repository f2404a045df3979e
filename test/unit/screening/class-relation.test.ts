/**
 * How a mark's classes stand to the item's (shared/screening/class-relation.ts): the item's own class, a class whose
 * goods travel with it, another, or unknown; a weak side reading of one word relates nothing.
 */
import { classRelationOf, type ItemClasses } from '../../../shared/screening/class-relation';
import { TitleContext } from '../../../shared/screening/title-context';
import { wordsOfTitle } from '../../../shared/screening/title-words';

const inferred = (...classes: [string, number][]): ItemClasses => ({
  classes: classes.map(([nice, weight]) => ({ nice, weight })),
  explicit: false,
});

describe('classRelationOf', () => {
  it('is the same class, with the weight the item gives it', () => {
    expect(classRelationOf(['18', '25'], inferred(['18', 0.93], ['21', 0.07]))).toEqual({
      relation: 'same',
      strength: 0.93,
    });
  });

  it('is related when the goods travel together (a bag and clothing)', () => {
    expect(classRelationOf(['25'], inferred(['18', 0.9]))).toEqual({ relation: 'related', strength: 0.9 });
  });

  it('is other when no class of the item is the mark’s or related to it', () => {
    expect(classRelationOf(['09'], inferred(['08', 0.56], ['21', 0.4]))).toEqual({ relation: 'other', strength: 0 });
  });

  it('is unknown when the mark has no class on record or nothing says what the item is', () => {
    expect(classRelationOf([], inferred(['25', 1])).relation).toBe('unknown');
    expect(classRelationOf(['25'], inferred()).relation).toBe('unknown');
  });

  it('takes a class the seller gives at full strength, however it is weighted', () => {
    expect(classRelationOf(['05'], { classes: [{ nice: '05', weight: 0.1 }], explicit: true })).toEqual({
      relation: 'same',
      strength: 1,
    });
  });

  it('does not relate a mark through an inferred class weaker than a fifth (a side reading of one word)', () => {
    expect(classRelationOf(['03', '30'], inferred(['25', 0.75], ['05', 0.17])).relation).toBe('other');
    expect(classRelationOf(['05'], inferred(['25', 0.75], ['05', 0.17])).relation).toBe('other');
    expect(classRelationOf(['05'], inferred(['25', 0.7], ['05', 0.3])).relation).toBe('same');
  });

  it('reads "Dove Grey Cotton T-Shirt": cotton also votes for cotton wool (class 5), which does not relate DOVE', () => {
    const title = 'Dove Grey Cotton T-Shirt for Men';
    const context = new TitleContext({ title }, wordsOfTitle(title));
    const item = context.itemClassesAround({ start: 0, end: 1 } as Parameters<typeof context.itemClassesAround>[0]);

    expect(item.classes.map((c) => c.nice)).toContain('05');
    expect(classRelationOf(['03', '30'], item).relation).toBe('other');
  });
});
