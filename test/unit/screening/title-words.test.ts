/**
 * A title as words and candidate runs: the per-token and per-run tables must give exactly what working each title
 * out from scratch would, however often a token or run comes back.
 */
import fc from 'fast-check';
import { normalizeText } from '../../../shared/marks/lookup-keys';
import { MAX_CJK_WORDS, MAX_LATIN_PARTS, MAX_LATIN_WORDS, RunTable } from '../../../shared/screening/candidates';
import {
  factsOfNormalised,
  isDescriptor,
  isGivenName,
  isGenericWord,
  isUnitAfterNumber,
  unitFactsOfNormalised,
} from '../../../shared/screening/lexicon';
import { wordsOfTitle } from '../../../shared/screening/title-words';

const titleArbitrary = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'Apple',
        'iPhone15',
        'for',
        'CASE',
        'Nike™',
        'Ni\u200bke',
        '耐克运动鞋',
        'x',
        '15',
        "Men's",
        'Crème',
        'HP',
        '75gm',
        'of',
      ),
      fc.string(),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(' '));

describe('wordsOfTitle', () => {
  it('splits letters from digits, keeps what was written and knows capitals', () => {
    const words = wordsOfTitle('Apple iPhone15 Case');

    expect(words.map((w) => [w.text, w.norm, w.capitalised])).toEqual([
      ['Apple', 'apple', true],
      ['iPhone', 'iphone', false],
      ['15', '15', false],
      ['Case', 'case', true],
    ]);
  });

  it('marks a word joined to the next by "&" with no space, and only such a word', () => {
    const marked = (title: string) =>
      wordsOfTitle(title)
        .filter((w) => w.ampersand)
        .map((w) => w.text);

    expect(marked('Lock&Lock Storage Box')).toEqual(['Lock']);
    expect(marked('H&M Cotton Tee and AT&T Phone')).toEqual(['H', 'AT']);
    expect(marked('Lock & Lock Storage Box')).toEqual([]);
    expect(marked('Salt& Pepper, Oil &Vinegar, & more')).toEqual([]);
    // The shared words of a token stay unmarked for the next title.
    expect(marked('Lock Box')).toEqual([]);
  });

  it("reads a unit that is also a maker's name as the unit only straight after a number that measures", () => {
    const unitRead = (title: string) =>
      wordsOfTitle(title)
        .filter((w) => isUnitAfterNumber(w.norm))
        .map((w) => w.facts.generic);

    expect(unitRead('Motor Pump 1.5 HP Single Phase')).toEqual([true]);
    expect(unitRead('Soap 75 gm')).toEqual([true]);
    expect(unitRead('Soap 75gm')).toEqual([true]);
    expect(unitRead('Engine Guard 150cc')).toEqual([true]);
    // A name where no number measures it: first, after a word, or after a count ("Pack of 2").
    expect(unitRead('HP Laptop 15 HP')).toEqual([false, true]);
    expect(unitRead('GM Car Seat Cover')).toEqual([false]);
    expect(unitRead('Pack of 2 HP 680 Ink Cartridge')).toEqual([false]);
  });

  it('sees no capitals in a title written all in capitals', () => {
    expect(wordsOfTitle('APPLE SLICER').map((w) => w.capitalised)).toEqual([false, false]);
  });

  it('gives every word its normalised form and its lexicon facts, the same on every call', () => {
    fc.assert(
      fc.property(titleArbitrary, (title) => {
        const first = wordsOfTitle(title);
        const again = wordsOfTitle(title);

        expect(again).toEqual(first);
        for (const word of first) {
          expect(word.norm).toBe(normalizeText(word.text).replace(/ /g, ''));
          // A unit that is a maker's name too ("hp", "gm") is read as a unit or as the word, by its place.
          if (word.facts !== factsOfNormalised(word.norm)) {
            expect(isUnitAfterNumber(word.norm)).toBe(true);
            expect(word.facts).toBe(unitFactsOfNormalised(word.norm));
          } else {
            expect(word.facts.generic).toBe(isGenericWord(word.norm));
          }
        }
      }),
    );
  });
});

describe('RunTable', () => {
  it('gives a run fuzzy keys only where a misspelling of a mark could be what the title wrote', () => {
    const keys = (title: string) =>
      Object.fromEntries(
        new RunTable().candidatesOf(wordsOfTitle(title)).map((c) => [c.run.joined, c.run.fuzzyKeys()]),
      );

    // From 5 to 8 letters (one edit allowed), the run's one-edit neighbourhood: its text and each deletion.
    expect(keys('Nikee Air Sneakers')).toMatchObject({
      nikee: ['d:nikee/nk', 'd:ikee/nk', 'd:nkee/nk', 'd:niee/nk', 'd:nike/nk'],
      nikeeair: [
        'd:nikeeair/nkr',
        'd:ikeeair/nkr',
        'd:nkeeair/nkr',
        'd:nieeair/nkr',
        'd:nikeair/nkr',
        'd:nikeeir/nkr',
        'd:nikeear/nkr',
        'd:nikeeai/nkr',
      ],
      // From 9 letters (two edits allowed), the phonetic skeleton.
      airsneakers: ['p:arsnkrs'],
    });
    // Under five letters no misspelling is allowed (editBudget), so only the exact key could find anything.
    expect(keys('Nyke Air Shoes')).toMatchObject({
      nyke: [],
      air: [],
      shoes: ['d:shoes/ks', 'd:hoes/ks', 'd:soes/ks', 'd:shes/ks', 'd:shos/ks', 'd:shoe/ks'],
    });
    // Three words and more have none.
    expect(keys('Zorblaxa Nikee Qwerty')).toMatchObject({ zorblaxanikeeqwerty: [] });
  });

  it('gives each run the joined text and keys of its words, and the same run to every title that has it', () => {
    const table = new RunTable();

    const first = table.candidatesOf(wordsOfTitle('Air Pods Case for Apple'));
    const second = table.candidatesOf(wordsOfTitle('Pink Air Pods'));

    const airPods = first.find((c) => c.run.joined === 'airpods')!;
    expect(airPods.run.exactKey).toBe('e:airpods');
    expect(airPods.run.fuzzyKeys()).toContain('d:airpod/arpds');
    expect(second.find((c) => c.run.joined === 'airpods')!.run).toBe(airPods.run);
    // A connecting word or a lone number is no candidate on its own, nor are connecting words together; a longer run
    // that has one is ("Post-it", "The North Face", "3M").
    expect(first.map((c) => c.run.joined)).not.toContain('for');
    expect(table.candidatesOf(wordsOfTitle('Size 15')).map((c) => c.run.joined)).toEqual(['size', 'size15']);
    expect(table.candidatesOf(wordsOfTitle('for it')).map((c) => c.run.joined)).toEqual([]);
    expect(table.candidatesOf(wordsOfTitle('Post-it Notes')).map((c) => c.run.joined)).toContain('postit');
    expect(table.candidatesOf(wordsOfTitle('The North Face')).map((c) => c.run.joined)).toContain('thenorthface');
    expect(table.candidatesOf(wordsOfTitle('3M Tape')).map((c) => c.run.joined)).toContain('3m');
    expect(table.candidatesOf(wordsOfTitle('R18Jewels-Fashion&U Metal Bangle')).map((c) => c.run.joined)).toContain(
      'r18jewelsfashionu',
    );
  });

  it('keeps every run as its table grows: a title seen before gets the same runs back', () => {
    const table = new RunTable();
    const titles = Array.from({ length: 3_000 }, (_, i) => `Brand${i} Widget${i % 7} Holder`);
    const firstSeen = titles.map((title) => table.candidatesOf(wordsOfTitle(title)));
    expect(table.size).toBeGreaterThan(10_000);
    titles.forEach((title, i) => {
      const again = table.candidatesOf(wordsOfTitle(title)).map((c) => c.run);
      expect(again).toHaveLength(firstSeen[i]!.length);
      again.forEach((run, j) => {
        expect(run).toBe(firstSeen[i]![j]!.run);
      });
    });
  });

  it('leaves a quiet run out until its time, and every run in again once told to forget', () => {
    const table = new RunTable();
    const words = wordsOfTitle('Pink Air Pods Case');
    const airPods = table.candidatesOf(words).find((c) => c.run.joined === 'airpods')!.run;
    table.quiet(airPods, 1_000);
    const joinedAt = (now?: number) => table.candidatesOf(words, now).map((c) => c.run.joined);

    expect(joinedAt(999)).not.toContain('airpods');
    // Longer runs through it are still walked to.
    expect(joinedAt(999)).toContain('airpodscase');
    expect(joinedAt(1_000)).toContain('airpods');
    expect(joinedAt()).toContain('airpods');
    table.forgetQuiet();
    expect(joinedAt(999)).toContain('airpods');
  });

  it('ignores quiet for a run it no longer holds (after starting afresh)', () => {
    // Ten runs in the first title, six in the second: past its bound of eight the table starts afresh, once.
    const table = new RunTable(8);
    const old = table.candidatesOf(wordsOfTitle('Pink Air Pods Case'))[0]!.run;
    const fresh = table.candidatesOf(wordsOfTitle('Blue Phone Cover')).map((c) => c.run);
    expect(fresh.map((run) => run.index)).toContain(old.index);
    table.quiet(old, Number.POSITIVE_INFINITY);
    const again = table.candidatesOf(wordsOfTitle('Blue Phone Cover'), 0).map((c) => c.run);
    expect(again).toHaveLength(fresh.length);
    again.forEach((run, i) => {
      expect(run).toBe(fresh[i]);
    });
  });

  it('numbers words by their normalised form, whatever their case or token', () => {
    const [black, , shouted] = wordsOfTitle('Black black BLACK');
    const [again] = wordsOfTitle('black-Case');
    expect(new Set([black!.id, shouted!.id, again!.id]).size).toBe(1);
    expect(wordsOfTitle('Case')[0]!.id).not.toBe(black!.id);
  });

  it('finds the runs a fresh table finds, whatever came before (and after it starts afresh)', () => {
    const shared = new RunTable(50);
    fc.assert(
      fc.property(titleArbitrary, (title) => {
        const words = wordsOfTitle(title);
        const summary = (table: RunTable) =>
          table.candidatesOf(words).map((c) => [c.start, c.end, c.run.joined, c.run.exactKey, c.run.fuzzyKeys()]);

        expect(summary(shared)).toEqual(summary(new RunTable()));
        for (const c of shared.candidatesOf(words)) {
          expect(c.run.joined).toBe(
            words
              .slice(c.start, c.end)
              .map((w) => w.norm)
              .join(''),
          );
          // Words written as one token ("R18Jewels-Fashion&U") count once, up to MAX_LATIN_PARTS words in all.
          const span = words.slice(c.start, c.end);
          const tokens = span.filter((w, i) => i === span.length - 1 || !(w.continued || w.hyphen || w.ampersand));
          if (c.run.cjk) expect(span.length).toBeLessThanOrEqual(MAX_CJK_WORDS);
          else {
            expect(tokens.length).toBeLessThanOrEqual(MAX_LATIN_WORDS);
            expect(span.length).toBeLessThanOrEqual(MAX_LATIN_PARTS);
          }
        }
      }),
    );
  });
});

describe('descriptors and given names', () => {
  it.each(['black', 'golden', 'glass', 'solid', 'leather', 'premium', 'smart'])('%s describes a product', (word) => {
    expect(isDescriptor(word)).toBe(true);
  });

  it.each(['pilot', 'magic', 'empire', 'nike', 'victor'])('%s does not describe a product', (word) => {
    expect(isDescriptor(word)).toBe(false);
  });

  it('knows common given names, but not those that are ordinary words too', () => {
    expect(isGivenName('Victor')).toBe(true);
    expect(isGivenName('linda')).toBe(true);
    expect(isGivenName('rose')).toBe(false);
    expect(isGivenName('hugo')).toBe(false);
  });
});

describe('a condition word glued to a name by a hyphen', () => {
  const hyphenated = (title: string) =>
    wordsOfTitle(title)
      .filter((w) => w.hyphen)
      .map((w) => w.norm);

  it('reads the name as standing on its own: "new-Xerox", "genuine-Canon", "new-Post-it"', () => {
    expect(hyphenated('new-xerox 108r00579 transfer roller')).toEqual([]);
    expect(hyphenated('Genuine-Canon PG-245 Ink')).toEqual(['pg']);
    expect(hyphenated('new-post-it super sticky notes')).toEqual(['post']);
  });

  it('keeps other hyphenated words whole: "T-Shirt", "Wi-Fi", "high-speed", "new-black"', () => {
    expect(hyphenated('T-Shirt Wi-Fi high-speed new-black')).toEqual(['t', 'wi', 'high', 'new']);
  });
});
