/**
 * Builds data/screening/english-words.json: the lower-case English words of the SCOWL-based word list Debian ships
 * as the `wamerican` package (/usr/share/dict/american-english; capitalised entries, i.e. names, are left out), as
 * a Bloom filter (shared/marks/key-filter.ts; about 0.3% of other words answer yes). The screening model reads it:
 * a mark that is an English word ("Crown", "Fusion", "Adobe") is weighed by context; a coined one ("Alisha") is not
 * a word. Run: apt-get install wamerican && npx tsx builders/build-english-words.ts [word list]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KeyFilter } from '../shared/marks/key-filter';

const SOURCE = process.argv[2] ?? '/usr/share/dict/american-english';
const OUT = path.join(__dirname, '../data/screening/english-words.json');

function main(): void {
  const text = readFileSync(SOURCE, 'utf8');
  const words = [...new Set(text.split('\n').filter((w) => /^[a-z]{3,}$/.test(w)))].sort();
  const filter = KeyFilter.forCapacity(words.length);
  for (const word of words) filter.add(word);
  const compact = filter.compacted();
  const data = {
    about:
      'Lower-case words of the wamerican word list (SCOWL), as a Bloom filter (shared/marks/key-filter.ts). Built by builders/build-english-words.ts; see SOURCE.txt.',
    source: `${path.basename(SOURCE)}, Debian package wamerican 2020.12.07-2, sha256 ${createHash('sha256').update(text).digest('hex')}`,
    words: words.length,
    filter: Buffer.from(compact.bits).toString('base64'),
  };
  writeFileSync(OUT, `${JSON.stringify(data, null, 1)}\n`);
  console.log(`${words.length} words, ${compact.bits.length} bytes -> ${path.relative(process.cwd(), OUT)}`);
}

main();
