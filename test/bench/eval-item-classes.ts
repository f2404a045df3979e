/**
 * How often the classes that screening reads from a title's product words are the class of the goods it sells, on
 * titles whose class was read by hand (test/fixtures/screening/item-classes-hand-read.json).
 *
 * Why it matters: a mark's class is compared with the item's (class_same, class_other). The "every labelled brand
 * registered" evaluation gives each labelled brand the classes the same inference reads from its own titles, so it
 * cannot see an inference that is wrong; a real register holds the class of the goods.
 *
 * Run: npx tsx test/bench/eval-item-classes.ts [--list]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readingClassesOf } from '../../shared/screening/class-relation';
import { TitleContext } from '../../shared/screening/title-context';
import { wordsOfTitle } from '../../shared/screening/title-words';

const FIXTURE = path.join(__dirname, '../fixtures/screening/item-classes-hand-read.json');

interface HandRead {
  /** fit: read beside the lexicon's classes, to choose changes on; report: read from the titles alone, measured. */
  half: 'fit' | 'report';
  set: string;
  title: string;
  /** null: the title names no goods that say a class. */
  nice: string | null;
}

function measure(half: HandRead['half'], titles: readonly HandRead[], list: boolean): void {
  const judged = titles.filter((t): t is HandRead & { nice: string } => t.half === half && t.nice !== null);
  let top = 0;
  let read = 0;
  let none = 0;
  const wrong: string[] = [];
  for (const t of judged) {
    // As the engine reads the item (TitleContext.itemClasses), with no class given by the seller.
    const item = new TitleContext({ title: t.title }, wordsOfTitle(t.title)).itemClasses;
    const inferred = item.classes;
    const reading = readingClassesOf(item);
    if (inferred.length === 0) none++;
    if (inferred[0]?.nice === t.nice) top++;
    if (reading.includes(t.nice)) read++;
    else wrong.push(`  ${t.nice}  read ${reading.join(' ') || '-'}\t${t.title}`);
  }
  const pct = (n: number) => `${((100 * n) / judged.length).toFixed(1)}%`;
  console.log(
    `${half}: ${judged.length} titles with a class read by hand; the strongest class read is it: ${top} (${pct(top)}); ` +
      `it is among the classes read (weight >= 0.2): ${read} (${pct(read)}); no class read: ${none} (${pct(none)})`,
  );
  if (list) console.log(['  not among the classes read:', ...wrong].join('\n'));
}

function main(): void {
  const { titles } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { titles: HandRead[] };
  const list = process.argv.includes('--list');
  measure('fit', titles, list);
  measure('report', titles, list);
}

main();
