/** The work a batch asks for, known before any screening: units, what fits, and the slices. */
import { itemsWithin, slicesByWork, workOfBatch, workOfTitle } from '../../../shared/screening/screening-work';

describe('screening work', () => {
  it('weighs a CJK character 3 units and any other word 1 (plus 1 per title)', () => {
    expect(workOfTitle('Wireless earbuds for iPhone')).toBe(5);
    expect(workOfTitle('耐克运动鞋')).toBe(16);
    expect(workOfTitle('Nike 耐克 air max 90')).toBe(4 + 6 + 1);
  });

  it('1,000 titles of 500 Chinese characters are 1,501,000 units; 1,000 Latin titles of 80 words are 81,000', () => {
    expect(workOfBatch(Array.from({ length: 1000 }, () => ({ title: '耐'.repeat(500) })))).toBe(1_501_000);
    expect(workOfBatch(Array.from({ length: 1000 }, () => ({ title: 'word '.repeat(80) })))).toBe(81_000);
  });

  it('says how many items from the first fit a budget', () => {
    const items = Array.from({ length: 10 }, () => ({ title: 'a b c d' }));
    expect(itemsWithin(items, 25)).toBe(5);
    expect(itemsWithin(items, 1000)).toBe(10);
  });

  it('slices keep order, never exceed the slice size (unless one item alone does), and lose nothing', () => {
    const items = [{ title: '耐'.repeat(400) }, ...Array.from({ length: 30 }, (_, i) => ({ title: `item ${i}` }))];
    const slices = slicesByWork(items, 20);
    expect(slices.flat()).toEqual(items);
    expect(slices[0]).toEqual([items[0]]);
    for (const slice of slices.slice(1)) expect(workOfBatch(slice)).toBeLessThanOrEqual(20);
  });
});
