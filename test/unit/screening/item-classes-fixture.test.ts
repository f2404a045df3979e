/**
 * The hand-read item classes (test/fixtures/screening/item-classes-hand-read.json, read by
 * test/bench/eval-item-classes.ts): labelled titles of the train and validation brand groups only, each read once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { labelledTitles } from '../../../builders/screening/labelled-titles';
import { splitOf } from '../../../builders/screening/screening-dataset';

const { titles } = JSON.parse(
  readFileSync(path.join(__dirname, '../../fixtures/screening/item-classes-hand-read.json'), 'utf8'),
) as { titles: { half: string; set: string; title: string; nice: string | null }[] };

describe('the hand-read item classes', () => {
  it('hold 98 fit and 99 report titles (of 100 each: three went when their makers went to the test split), each once', () => {
    expect(titles.filter((t) => t.half === 'fit')).toHaveLength(98);
    expect(titles.filter((t) => t.half === 'report')).toHaveLength(99);
    expect(new Set(titles.map((t) => t.title)).size).toBe(titles.length);
    for (const t of titles) expect(t.nice === null || (/^\d\d$/.test(t.nice) && Number(t.nice) <= 34)).toBe(true);
  });

  it('are drawn from labelled titles of the train and validation brand groups', () => {
    // A title can recur under several labels ("S4S Stylish Women's Push-up Bra" under the colours its brand column
    // gives), some of them in the test split; each was drawn from a train or validation one.
    const splits = new Map<string, Set<string>>();
    for (const t of labelledTitles()) {
      if (!t.group) continue;
      const key = `${t.set}\t${t.title}`;
      splits.set(key, (splits.get(key) ?? new Set()).add(splitOf(t.group)));
    }
    for (const t of titles) {
      const seen = splits.get(`${t.set}\t${t.title}`) ?? new Set();
      expect([t.title, seen.has('train') || seen.has('validation')]).toEqual([t.title, true]);
    }
  });
});
