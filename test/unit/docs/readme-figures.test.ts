/**
 * The README's figures are BENCHMARKS.md's: every row of the README's figures table (measure, aim, result) is a row
 * of BENCHMARKS.md's "Current figures" table, word for word, so a new run that changes a figure there fails here
 * until the README says the same. BENCHMARKS.md's table itself names a command and a date on every row.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const BENCHMARKS = readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8');

/** The rows of the first table after `marker` (header and rule left out), each as its trimmed cells. */
function tableAfter(text: string, marker: string): string[][] {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`no "${marker}"`);
  const lines = text.slice(at).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows.slice(2);
}

const readmeRows = tableAfter(README, '<!-- figures:');
const currentRows = tableAfter(BENCHMARKS, '## Current figures');

it('BENCHMARKS.md opens with the current table, a command and a date on every row', () => {
  expect(BENCHMARKS.indexOf('## Current figures')).toBe(BENCHMARKS.indexOf('## '));
  expect(currentRows.length).toBeGreaterThanOrEqual(10);
  for (const [measure, aim, result, command, date] of currentRows) {
    expect({ measure, aim, result }).toEqual({
      measure: expect.any(String),
      aim: expect.stringMatching(/\S/),
      result: expect.stringMatching(/\S/),
    });
    expect(command).toMatch(/npm (run|test)/);
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }
});

it('every figure in the README is the same in BENCHMARKS.md', () => {
  expect(readmeRows.length).toBeGreaterThan(0);
  const current = new Map(currentRows.map(([measure, aim, result]) => [measure, { aim, result }]));
  for (const [measure, aim, result] of readmeRows) {
    expect({ measure, ...current.get(measure!) }).toEqual({ measure, aim, result });
  }
});

it('the README states no figure of measured quality outside that table', () => {
  const outside = README.replace(/<!-- figures:[\s\S]*?\n\n/, '');
  // Recall, precision, AUROC or a p50 followed by a figure: a measurement that belongs in BENCHMARKS.md.
  expect(outside.match(/\b(recall|precision|AUROC|p50)\b[^.\n]{0,40}\b\d+(\.\d+)?\s?(%|ms)/gi) ?? []).toEqual([]);
});
