/** Field values of a case-file: dates as the file writes them, escaped text, drawn mark texts and Nice classes. */
import type { Draw } from './random';
import { SYLLABLES, WEIGHTED_CLASSES, WORDS } from './vocabulary';

const DAY_MS = 86_400_000;

export function dayOf(yyyymmdd: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  if (!match) throw new Error(`transaction date "${yyyymmdd}" is not YYYYMMDD`);
  const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
  if (new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '') !== yyyymmdd) {
    throw new Error(`transaction date "${yyyymmdd}" is not a calendar date`);
  }
  return day;
}

/** Dates fall within about 40 years of the transaction date, so this cache stays at a few thousand entries. */
const formattedDays = new Map<number, string>();

export function yyyymmdd(day: number): string {
  let formatted = formattedDays.get(day);
  if (formatted === undefined) {
    const iso = new Date(day * DAY_MS).toISOString();
    formatted = iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10);
    if (formattedDays.size < 50_000) formattedDays.set(day, formatted);
  }
  return formatted;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function coinedWord(draw: Draw): string {
  let word = '';
  const syllables = draw.int(2, 3);
  for (let index = 0; index < syllables; index += 1) word += draw.pick(SYLLABLES);
  return word.toUpperCase();
}

export function markText(draw: Draw): string {
  const shape = draw.random();
  if (shape < 0.4) return coinedWord(draw);
  if (shape < 0.75) return `${draw.pick(WORDS)} ${draw.chance(0.5) ? draw.pick(WORDS) : coinedWord(draw)}`;
  if (shape < 0.97) return `${draw.pick(WORDS)} ${draw.pick(WORDS)} ${draw.pick(WORDS)}`;
  return `${draw.pick(WORDS)} & ${draw.pick(WORDS)}`;
}

export function niceClasses(draw: Draw): number[] {
  const count = draw.chance(0.7) ? 1 : draw.chance(0.7) ? draw.int(2, 3) : draw.int(4, 8);
  const classes = new Set<number>();
  while (classes.size < count) classes.add(draw.pick(WEIGHTED_CLASSES));
  return [...classes].sort((a, b) => a - b);
}

export const pad3 = (value: number): string => String(value).padStart(3, '0');
