/**
 * `npx tsx builders/build-code-tables.ts [--check]`: the USPTO code tables the parsers use, from the CSVs in
 * data/uspto/code-tables into one JSON module that bundles into a Lambda (a CSV read from disk at run time would
 * not be there). --check exits 1 when the committed JSON no longer matches the CSVs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

const DIR = path.join(__dirname, '../data/uspto/code-tables');
const TABLES = ['status_codes.csv', 'drawing_codes.csv'] as const;
export const CODE_TABLES_JSON = path.join(DIR, 'code-tables.json');

export function buildCodeTables(): string {
  const tables = Object.fromEntries(
    TABLES.map((name) => [
      name,
      parse(readFileSync(path.join(DIR, name), 'utf8'), { columns: true, skip_empty_lines: true, trim: true }),
    ]),
  );
  return `${JSON.stringify(tables, null, 1)}\n`;
}

if (require.main === module) {
  const built = buildCodeTables();
  if (process.argv.includes('--check')) {
    const same = readFileSync(CODE_TABLES_JSON, 'utf8') === built;
    console.log(
      same ? 'code-tables.json is up to date' : 'code-tables.json differs from the CSVs: run without --check',
    );
    process.exit(same ? 0 : 1);
  }
  writeFileSync(CODE_TABLES_JSON, built);
  console.log(`wrote ${CODE_TABLES_JSON}`);
}
