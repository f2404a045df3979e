/**
 * Builds data/screening/title-word-frequencies.json: for every word of the listing titles in test/fixtures/titles
 * (all three sets, labels not read), in how many titles it stands as a plain word (screening/plain-word-counts.ts:
 * not first, not after a nominative cue). The screening model reads it as distinctiveness: "crown" or "solid" is
 * common in titles, "Alisha" is not.
 * Run: npx tsx builders/build-title-frequencies.ts
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { allTitles } from './screening/labelled-titles';
import { countPlainWords } from './screening/plain-word-counts';

const OUT = path.join(__dirname, '../data/screening/title-word-frequencies.json');

function main(): void {
  const titles = allTitles();
  const counts = countPlainWords(titles);
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
