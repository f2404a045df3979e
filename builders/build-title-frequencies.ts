/**
 * Builds data/screening/title-word-frequencies.json: for every word of the listing titles in test/fixtures/titles
 * (all three sets, labels not read), in how many titles it stands as a plain word: anywhere but first (where
 * makers' names stand) and not introduced by a nominative cue ("for the Amazon Kindle", "compatible with iPhone":
 * there it names what the item fits, and a brand named often would pass for a common word). The screening model
 * reads it as distinctiveness: "crown" or "solid" is common in titles, "Alisha" is not.
 * Run: npx tsx builders/build-title-frequencies.ts
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { nominativeCueOfNormalised } from '../shared/screening/lexicon';
import { wordsOfTitle } from '../shared/screening/title-words';
import { allTitles } from './screening/labelled-titles';

const OUT = path.join(__dirname, '../data/screening/title-word-frequencies.json');

function main(): void {
  const titles = allTitles();
  const counts = new Map<string, number>();
  for (const title of titles) {
    const seen = new Set<string>();
    const words = wordsOfTitle(title);
    const norms = words.map((word) => word.norm);
    words.forEach((word, i) => {
      if (i > 0 && !word.cjk && !/^\d+$/.test(word.norm) && nominativeCueOfNormalised(norms, i) === undefined)
        seen.add(word.norm);
    });
    for (const word of seen) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const encoded = sorted.map(([w, n]) => `${w}:${n}`).join(' ');
  const data = {
    about:
      'Titles in which each word stands as a plain word (not first, not after a nominative cue). Built by builders/build-title-frequencies.ts; see SOURCE.txt.',
    titles: titles.length,
    sha256OfTitles: createHash('sha256').update(titles.join('\n')).digest('hex'),
    counts: encoded,
  };
  writeFileSync(OUT, `${JSON.stringify(data, null, 1)}\n`);
  console.log(`${sorted.length} words from ${titles.length} titles -> ${path.relative(process.cwd(), OUT)}`);
}

main();
