/**
 * Synthetic USPTO "Trademark Applications Daily XML" for scale tests and benchmarks:
 *   npx tsx builders/synthetic-uspto.ts --records N [--out path] [--seed S] [--dead-share 0.2] [--gzip]
 *     [--pending-share 0.4] [--date YYYYMMDD] [--first-serial 60000000]   (default out: .local/synthetic/synthetic-uspto-N.xml[.gz])
 *
 * Input: the number of case-files, a seed and the share of dead marks.
 * Output: one daily XML file with the real sample's structure (data/uspto/daily-xml-sample/seed.xml: its DTD,
 * root, file-segments/action-keys grouping, case-file-header flags, statements, event history, classifications,
 * correspondent, owners, now and then a Madrid filing record), so parsers and ingest meet realistic files.
 * Steps:
 *   1. write the sample's prologue (XML declaration and DTD) and the root's header elements;
 *   2. for each record draw a status (registered, pending or dead, codes from data/uspto/code-tables), a mark text,
 *      Nice classes, dates, owners and events from a seeded generator, and append the case-file;
 *   3. hand the text to the sink in chunks of about 64 KiB, waiting for 'drain' whenever the sink asks to, so memory
 *      stays flat whatever N is.
 * Records cannot be mistaken for real ones: serials start at 60000000 (series codes 60-69 have never been trademark
 * series; USPTO trademark serials begin with 70 to 99) and every owner name starts with "SYNTHETIC".
 * The same seed and options always give the same bytes.
 * Parts, in builders/synthetic-uspto/: daily-xml.ts writes the document (steps 1 and 3), case-file.ts draws a
 * record's facts and case-file-xml.ts writes it (step 2), from random.ts (the seeded generator), vocabulary.ts,
 * field-values.ts and reference-data.ts (the shipped code table and sample).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { type SyntheticDailyXmlOptions, writeSyntheticDailyXml } from './synthetic-uspto/daily-xml';

interface CliOptions extends SyntheticDailyXmlOptions {
  out: string;
  gzip: boolean;
}

function cliOptions(argv: readonly string[]): CliOptions {
  const optionValue = (flag: string): string | undefined => {
    const index = argv.indexOf(flag);
    if (index === -1) return undefined;
    const value = argv[index + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    return value;
  };
  const numberOf = (flag: string): number | undefined => {
    const value = optionValue(flag);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) throw new Error(`${flag} must be a number, got "${value}"`);
    return parsed;
  };
  const records = numberOf('--records');
  if (records === undefined) throw new Error('--records N is required');
  const gzip = argv.includes('--gzip');
  const defaultOut = path.join('.local', 'synthetic', `synthetic-uspto-${records}.xml${gzip ? '.gz' : ''}`);
  return {
    records,
    seed: numberOf('--seed'),
    deadShare: numberOf('--dead-share'),
    pendingShare: numberOf('--pending-share'),
    transactionDate: optionValue('--date'),
    firstSerial: numberOf('--first-serial'),
    out: optionValue('--out') ?? defaultOut,
    gzip,
  };
}

async function main(): Promise<void> {
  const options = cliOptions(process.argv.slice(2));
  mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
  const file = createWriteStream(options.out);
  const gzip = options.gzip ? createGzip() : undefined;
  if (gzip) gzip.pipe(file);
  const sink: Writable = gzip ?? file;
  const started = process.hrtime.bigint();
  const summary = await writeSyntheticDailyXml(sink, options);
  sink.end();
  await finished(file);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `${JSON.stringify({
      ...summary,
      out: options.out,
      seconds: Number(seconds.toFixed(2)),
      recordsPerSecond: Math.round(summary.records / seconds),
      peakRssMb: Math.round(peakRssMb),
    })}\n`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`synthetic-uspto: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
