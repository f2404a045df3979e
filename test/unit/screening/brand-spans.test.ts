/**
 * In a register where every word is somebody's mark, a title's runs are looked up only where its own language
 * proposes a brand (shared/screening/brand-spans.ts): first or after words that only describe, after a maker or
 * nominative cue (and the rest of a list the cue opened), in a word no word list knows, or as a TRO brand. These
 * are general patterns; the titles are made up for them.
 */
import { BrandSpans, isNamePhrase } from '../../../shared/screening/brand-spans';
import { RunTable } from '../../../shared/screening/candidates';
import { wordsOfTitle } from '../../../shared/screening/title-words';
import { TroIndex } from '../../../shared/screening/tro-index';

const TRO = new TroIndex([
  {
    brand: 'Star Wars',
    brandKey: 'starwars',
    batchDate: '2026-11-20',
    plaintiffs: ['Lucasfilm Ltd.'],
    caseCount: 1,
    caseNumbers: ['1:26-cv-00001'],
    courts: ['ilnd'],
    sources: ['test'],
    checkedAgainstDocket: false,
  },
]);

/** The proposed runs of a title, as their words joined by spaces. */
function proposed(title: string, tro?: TroIndex): string[] {
  const words = wordsOfTitle(title);
  const spans = new BrandSpans(words, tro);
  return new RunTable()
    .candidatesOf(words)
    .filter((c) => spans.proposes(c))
    .map((c) =>
      words
        .slice(c.start, c.end)
        .map((w) => w.norm)
        .join(' '),
    );
}

it('proposes the first words of a title and not ordinary words further on', () => {
  const runs = proposed('Abstract Cushions Cover Laptop Memory Kit');

  expect(runs).toContain('abstract');
  expect(runs).toContain('cushions');
  expect(runs).not.toContain('memory');
  expect(runs).not.toContain('laptop memory');
  expect(runs).not.toContain('kit');
});

it('proposes the first word after words that only describe', () => {
  expect(proposed('Certified Refurbished Ring Video Doorbell')).toContain('ring');
  expect(proposed('Steel Mounting Bracket Ring Video Doorbell')).not.toContain('ring');
});

it('proposes what a maker or nominative cue introduces, and the rest of the list it opened', () => {
  expect(proposed('Sticky Note Pad Refills by Post')).toContain('post');
  expect(proposed('Wall Mount Bracket for Echo and Ring Doorbell')).toContain('ring');
  expect(proposed('Wall Mount Bracket for Echo and Ring Doorbell')).toContain('echo');
  expect(proposed('Wall Mount Bracket with Screws and Ring Doorbell')).not.toContain('ring');
});

it('proposes a word no word list knows, wherever it stands', () => {
  const runs = proposed('Replacement Charging Cable Zorblaxa Wireless Earbuds');

  expect(runs).toContain('zorblaxa');
  expect(runs).toContain('cable zorblaxa');
  expect(runs).not.toContain('wireless');
});

it('proposes a TRO brand made of ordinary words wherever it stands, and not its words alone', () => {
  const runs = proposed('Building Block Set Star Wars Kylo Ren Fighter', TRO);

  expect(runs).toContain('star wars');
  expect(runs).not.toContain('star');
  expect(proposed('Building Block Set Star Wars Kylo Ren Fighter')).not.toContain('star wars');
});

it('keeps the work of a long title of ordinary words to its first runs', () => {
  const title = 'soft warm blanket green wool throw large sofa cover blue cotton pillow case bed sheet set';
  const every = new RunTable().candidatesOf(wordsOfTitle(title)).length;

  expect(proposed(title).length).toBeLessThanOrEqual(8);
  expect(every).toBeGreaterThan(40);
});

describe('isNamePhrase: words that could only be read together as a name', () => {
  const whole = (title: string) => {
    const words = wordsOfTitle(title);
    return isNamePhrase(words, 0, words.length);
  };

  it.each(['Star Wars', 'League of Legends', 'Kylo Ren', 'Teenage Mutant Ninja Turtles'])('"%s" is one', (phrase) => {
    expect(whole(phrase)).toBe(true);
  });

  it.each([
    ['Stainless Steel', 'a term of ordinary language'],
    ['Cotton Kurta', 'goods and their material only'],
    ['Black Leather', 'descriptions only'],
    ['Victor Hugo', "a person's name"],
    ['TE-D820R', 'a model code read as two words'],
    ['Star', 'one word'],
  ])('"%s" is none (%s)', (phrase) => {
    expect(whole(phrase)).toBe(false);
  });
});
