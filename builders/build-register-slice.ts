/**
 * `npx tsx builders/build-register-slice.ts <register.jsonl>`: the slice of a register-scale corpus that screening
 * the labelled titles can ever find, written to data/screening/register-slice.jsonl.
 *
 * The brand-use model is fitted on what the train titles' words match in a register of real size
 * (`npm run data:register-scale -- --marks 1000000 --out FILE`: every dictionary word somebody's mark), but that
 * file is 270 MB and takes minutes to load twice into memory. Screening a title reads only the marks filed under the
 * keys its runs look up, so the slice keeps exactly those: every mark any lookup found while the training examples
 * (train titles, the titles made from them by rule, validation, the cross-fit titles), the test titles and the hard
 * cases were screened against the whole corpus. For those titles the slice gives the same matches, features and
 * labels as the whole corpus (a key holds the same marks in both, and a key absent from the slice holds none that
 * those titles' runs could reach). A change to which runs are looked up (candidates.ts, brand-spans.ts) or to the
 * titles needs the slice built again; test/unit/screening/model-features-current.test.ts says so when it is stale.
 *
 *  1. Screen every title above against the corpus (the real ingest into in-memory stores), noting each mark found.
 *  2. Stream the corpus file again and keep the marks noted that are not dead (screening never matches a dead one),
 *     in file order, with only the fields screening reads, gzipped (about 1.2 MB for some 108,000 marks).
 */
import { createReadStream, createWriteStream, renameSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { MarkSummary } from '../shared/ports';
import { hardCases } from '../test/support/hard-cases';
import { loadCorpus, REGISTER_SLICE, splitTitles } from './screening/screening-dataset';
import { trainingExamples } from './screening/training-examples';

/** The fields of a marks-jsonl line that screening reads (data/FORMATS.md). */
const SCREENING_FIELDS = ['serial', 'mark', 'nice', 'is_live', 'status_category', 'drawing_kind', 'owner'];

async function main(): Promise<void> {
  const register = process.argv[2];
  if (!register) {
    console.error('usage: npx tsx builders/build-register-slice.ts <register.jsonl> [--out FILE]');
    process.exit(2);
  }
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? path.resolve(process.argv[at + 1]!) : REGISTER_SLICE;
  const started = Date.now();
  const found = new Set<string>();
  const onFound = (marks: Iterable<MarkSummary>) => {
    for (const mark of marks) found.add(mark.serial);
  };

  const splits = splitTitles();
  await trainingExamples(splits, { register, onFound });
  const corpus = await loadCorpus('registered', {}, { register, onFound });
  const titles = [
    ...splits.test.branded,
    ...splits.test.removed,
    ...hardCases().map((c) => ({ title: c.title, ...(c.nice ? { nice: c.nice } : {}) })),
  ];
  for (let i = 0; i < titles.length; i += 1000)
    await corpus.screener.screen(titles.slice(i, i + 1000).map((t) => ({ title: t.title })));

  const partial = `${out}.partial`;
  const gzip = createGzip({ level: 9 });
  const written = gzip.pipe(createWriteStream(partial));
  let kept = 0;
  let read = 0;
  for await (const line of createInterface({
    input: createReadStream(register),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (!line) continue;
    read++;
    const record = JSON.parse(line) as Record<string, unknown>;
    // A dead record is never a match (run-matches.ts), and the fields screening does not read are left out.
    if (!found.has(record.serial as string) || record.status_category === 'dead') continue;
    kept++;
    const slim = Object.fromEntries(SCREENING_FIELDS.filter((f) => f in record).map((f) => [f, record[f]]));
    if (!gzip.write(`${JSON.stringify(slim)}\n`)) await once(gzip, 'drain');
  }
  gzip.end();
  await once(written, 'finish');
  renameSync(partial, out);
  console.log(
    `${kept.toLocaleString('en')} of ${read.toLocaleString('en')} marks of ${path.basename(register)} kept -> ${path.relative(process.cwd(), out)} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
