/**
 * Builds the CN beta sample: npx tsx builders/build-cn-sample.ts [--out data/sample] [--as-of YYYY-MM-DD]
 *
 * Input: sample-corpus/cn-brands.csv, a hand-made table (Chinese name, pinyin, Latin name, Nice classes).
 * Output: <out>/cn-marks.jsonl (canonical mark JSONL, market CN, marks in force only) and <out>/cn-coverage.json.
 * Steps: per brand one record for the Chinese name (with its pinyin as transliteration) and one for the Latin name,
 * plus, for the first brands, the combined Chinese-and-Latin form that many registrations use; every line is
 * validated with the canonical JSONL schema before anything is written. These are sample records, not register data.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { markJsonlLineSchema, type MarkJsonlLine } from '../shared/marks/cn-jsonl';

export const CN_SAMPLE_SERIAL_PREFIX = 'CN-SAMPLE-';
const COMBINED_FORM_BRANDS = 12;

interface CnBrandRow {
  chinese: string;
  pinyin: string;
  latin: string;
  nice: string;
}

function optionValue(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  return index === -1 ? undefined : argv[index + 1];
}

function main(): void {
  const argv = process.argv.slice(2);
  const outDir = optionValue(argv, '--out') ?? path.resolve(__dirname, '../data/sample');
  const asOf = optionValue(argv, '--as-of') ?? new Date().toISOString().slice(0, 10);
  const rows = parse(readFileSync(path.join(__dirname, 'sample-corpus/cn-brands.csv'), 'utf8'), {
    columns: true,
    comment: '#',
    skip_empty_lines: true,
    trim: true,
  }) as CnBrandRow[];

  const lines: MarkJsonlLine[] = [];
  const push = (line: Omit<MarkJsonlLine, 'serial' | 'is_live' | 'drawing_kind'>): void => {
    const serial = `${CN_SAMPLE_SERIAL_PREFIX}${String(lines.length + 1).padStart(6, '0')}`;
    const full: MarkJsonlLine = { serial, ...line, is_live: true, drawing_kind: 'word' };
    const checked = markJsonlLineSchema.safeParse(full);
    if (!checked.success) throw new Error(`${serial}: ${checked.error.message}`);
    lines.push(full);
  };
  rows.forEach((row, index) => {
    const nice = row.nice.split(/\s+/).map(Number);
    push({ mark: row.chinese, transliteration: row.pinyin, nice });
    push({ mark: row.latin, nice });
    if (index < COMBINED_FORM_BRANDS) push({ mark: `${row.chinese} ${row.latin}`, transliteration: row.pinyin, nice });
  });

  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'cn-marks.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const coverage = {
    country: 'CN',
    source: 'hand-made sample records (data/sample/SOURCE.txt); not an extract of the CNIPA register',
    partial: true,
    coverage_note:
      `Beta sample of ${lines.length} marks in force for ${rows.length} well-known brands (Chinese name with pinyin, ` +
      'Latin name, some combined forms). It is not the CNIPA register: most Chinese marks are absent, classes are ' +
      "the brands' core goods only, and a result with no CN conflict proves nothing.",
    data_as_of: asOf,
  };
  writeFileSync(path.join(outDir, 'cn-coverage.json'), `${JSON.stringify(coverage, null, 2)}\n`);
  process.stdout.write(`${lines.length} CN sample records, ${rows.length} brands\n`);
}

if (require.main === module) main();
