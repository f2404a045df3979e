/**
 * Builds data/screening/describing-words.json: the single words WordNet 3.0 reads mainly as adjectives (at least as
 * many adjective senses as noun senses: "royal", "stylish", "deluxe", "golden"; not "ring", "coach", "fossil"), as a
 * Bloom filter (shared/marks/key-filter.ts). Screening reads it where a mark of one ordinary word would be raised for
 * its owner's portfolio alone (shared/screening/mark-strength.ts): a describing word before a product ("Royal
 * Ornamental Showpiece") describes the item, whoever holds it as a mark.
 * Run: apt-get install wordnet-base && npx tsx builders/build-describing-words.ts [--check] [WordNet dict folder]
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KeyFilter } from '../shared/marks/key-filter';

const CHECK = process.argv.includes('--check');
const DICT = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '/usr/share/wordnet';
const OUT = path.join(__dirname, '../data/screening/describing-words.json');
const WORD = /^[a-z]{3,}$/;

/** Senses of each single lower-case lemma of one part of speech (index.POS: lemma pos synset_cnt ...). */
function sensesOf(file: string): { senses: Map<string, number>; sha256: string } {
  const text = readFileSync(path.join(DICT, file), 'utf8');
  const senses = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const [lemma, , count] = line.split(' ');
    if (lemma !== undefined && WORD.test(lemma)) senses.set(lemma, Number(count));
  }
  return { senses, sha256: createHash('sha256').update(text).digest('hex') };
}

function main(): void {
  if (!existsSync(path.join(DICT, 'index.adj'))) throw new Error(`no WordNet in ${DICT}: apt-get install wordnet-base`);
  const adjectives = sensesOf('index.adj');
  const nouns = sensesOf('index.noun');
  const words = [...adjectives.senses.entries()]
    .filter(([word, senses]) => senses >= (nouns.senses.get(word) ?? 0))
    .map(([word]) => word)
    .sort();
  const filter = KeyFilter.forCapacity(words.length);
  for (const word of words) filter.add(word);
  const data = {
    about:
      'Single words WordNet 3.0 reads mainly as adjectives (adjective senses >= noun senses), as a Bloom filter (shared/marks/key-filter.ts). Built by builders/build-describing-words.ts; see SOURCE.txt.',
    source: `index.adj sha256 ${adjectives.sha256}, index.noun sha256 ${nouns.sha256} (Debian package wordnet-base, WordNet 3.0)`,
    words: words.length,
    filter: Buffer.from(filter.compacted().bits).toString('base64'),
  };
  const text = `${JSON.stringify(data, null, 1)}\n`;
  if (CHECK) {
    const same = existsSync(OUT) && readFileSync(OUT, 'utf8') === text;
    console.log(same ? 'describing-words.json is current' : 'describing-words.json differs from its sources');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, text);
  console.log(`${words.length} words -> ${path.relative(process.cwd(), OUT)}`);
}

main();
