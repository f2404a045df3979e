/**
 * How a mark's classes stand to the item's (shared/screening/class-relation.ts): the item's own class, a class whose
 * goods travel with it, another, or unknown; a weak side reading of one word relates nothing.
 */
import fc from 'fast-check';
import { classRelationOf, type ItemClasses } from '../../../shared/screening/class-relation';
import { TitleContext } from '../../../shared/screening/title-context';
import { wordsOfTitle } from '../../../shared/screening/title-words';

const inferred = (...classes: [string, number][]): ItemClasses => ({
  classes: classes.map(([nice, weight]) => ({ nice, weight })),
  explicit: false,
});

const CLASSES = Array.from({ length: 45 }, (_, i) => String(i + 1).padStart(2, '0'));
const RANK = { same: 3, related: 2, other: 1, unknown: 0 } as const;

describe('classRelationOf', () => {
  it('reads every pair of classes one way round as the other, and a class as the same only as itself', () => {
    for (const a of CLASSES)
      for (const b of CLASSES) {
        const there = classRelationOf([a], inferred([b, 1])).relation;
        expect(there).toBe(classRelationOf([b], inferred([a, 1])).relation);
        expect(there === 'same').toBe(a === b);
      }
  });

  it('gives a mark of several classes the closest relation any of them has, at the strongest weight giving it', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...CLASSES), { minLength: 1, maxLength: 6 }),
        fc.uniqueArray(fc.tuple(fc.constantFrom(...CLASSES), fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 3,
          selector: ([nice]) => nice,
        }),
        (mark, item) => {
          const whole = classRelationOf(mark, inferred(...item));
          let best = { relation: 'other', strength: 0 } as ReturnType<typeof classRelationOf>;
          for (const nice of mark)
            for (const pair of item) {
              const one = classRelationOf([nice], inferred(pair));
              if (one.relation === 'other') continue;
              if (
                RANK[one.relation] > RANK[best.relation] ||
                (one.relation === best.relation && one.strength > best.strength)
              )
                best = one;
            }
          expect(whole).toEqual(best);
        },
      ),
    );
  });

  it('compares a class written otherwise than as two digits as it is written', () => {
    expect(classRelationOf(['9', '25'], inferred(['9', 0.8])).relation).toBe('same');
    expect(classRelationOf(['9'], inferred(['09', 0.8])).relation).toBe('other');
    expect(classRelationOf(['9', '18'], inferred(['25', 0.7]))).toEqual({ relation: 'related', strength: 0.7 });
  });

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
