/** A feed's placeholder for a missing value names nothing (shared/screening/placeholders.ts); a brand of those letters does. */
import { isPlaceholder } from '../../../shared/screening/placeholders';
import { wordsOfTitle } from '../../../shared/screening/title-words';

function placeholderAt(title: string, index: number): boolean {
  return isPlaceholder(wordsOfTitle(title), { start: index, end: index + 1, run: undefined as never });
}

it.each([
  ['Sterling Silver NA Brass Ring', 2],
  ['Cotton Kurta Colour null Size M', 3],
  ['Steel Bottle Capacity NaN ml', 3],
])('"%s": the word at %i stands for a missing value', (title, index) => {
  expect(placeholderAt(title, index)).toBe(true);
});

it.each([
  ['NA Brass Ring', 0, 'first, where a brand stands'],
  ['Dress by NA-KD Black', 2, 'one part of a hyphenated name'],
  ['Sterling Silver Nanda Ring', 2, 'another word'],
])('"%s": the word at %i is no placeholder (%s)', (title, index) => {
  expect(placeholderAt(title, index)).toBe(false);
});

it('a run of several words is none', () => {
  expect(isPlaceholder(wordsOfTitle('Silver NA Brass'), { start: 1, end: 3, run: undefined as never })).toBe(false);
});
