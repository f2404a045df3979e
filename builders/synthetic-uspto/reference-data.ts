/** What the generator takes from the shipped USPTO data: the status-code table and the real sample's prologue. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { usptoStatusOf } from '../../shared/marks/uspto-status';

const DATA_DIR = path.resolve(__dirname, '../../data/uspto');

export type Lifecycle = 'registered' | 'pending' | 'dead';

/** The status codes of each lifecycle: the ones most files are full of, and all of them. */
export type StatusCodes = Record<Lifecycle, { common: string[]; all: string[] }>;

/** Status codes of each lifecycle, read from the shipped USPTO table so every code the file uses is a known one. */
export function statusCodesByLifecycle(): StatusCodes {
  const rows = parse(readFileSync(path.join(DATA_DIR, 'code-tables/status_codes.csv'), 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    trim: true,
  }) as { code: string }[];
  const all: Record<Lifecycle, string[]> = { registered: [], pending: [], dead: [] };
  for (const { code } of rows) {
    const category = usptoStatusOf(code)?.category;
    if (category === 'registered' || category === 'pending' || category === 'dead') all[category].push(code);
  }
  // The codes most files are full of; drawn half of the time so the mix looks like a real day.
  const preferred: Record<Lifecycle, string[]> = {
    registered: ['700', '800', '702', '701'],
    pending: ['630', '641', '661', '686', '688', '681'],
    dead: ['602', '606', '710', '900', '601'],
  };
  const result = {} as StatusCodes;
  for (const lifecycle of ['registered', 'pending', 'dead'] as const) {
    if (all[lifecycle].length === 0) throw new Error(`status_codes.csv has no ${lifecycle} code`);
    const common = preferred[lifecycle].filter((code) => all[lifecycle].includes(code));
    result[lifecycle] = { common: common.length > 0 ? common : all[lifecycle], all: all[lifecycle] };
  }
  return result;
}

/** The real sample's XML declaration and DTD, so a synthetic file is read exactly like a real one. */
export function prologue(): string {
  const seed = readFileSync(path.join(DATA_DIR, 'daily-xml-sample/seed.xml'), 'utf8');
  const end = seed.indexOf(']>');
  if (!seed.startsWith('<?xml') || end === -1) throw new Error('seed.xml: no XML declaration and DTD to copy');
  return `${seed.slice(0, end + 2)}\n`;
}
