/**
 * Sellers' reports, as exported by `npm run admin -- feedback export` (shared/feedback/feedback-export.ts), turned
 * into train examples of the brand-use model (builders/train-screening-model.ts, step 2):
 *  1. Read the files (`--feedback FILE`, repeatable; by default every data/screening/feedback/*.jsonl), each line
 *     checked against the export's schema, each file's SHA-256 kept for the model file.
 *  2. The marks the reports name (a false alarm's mark, a missed brand) as live word marks, their classes from the
 *     report's title as the labelled brands' are (screening-dataset.ts registeredBrandBatch): the corpus the train
 *     titles are matched against holds the labelled brands and a slice of the register, not every mark a seller met.
 *  3. Each report's title screened against that corpus; the matches of its mark get its label (a false alarm: no
 *     brand use; a missed brand or the right mark: brand use), each FEEDBACK_WEIGHT rows, once per span of words
 *     (a mark the corpus already holds is matched by its own record and the report's: the corpus's is kept). A false alarm that did
 *     not quote its mark labels the matches the current model raises (at or above its 中 threshold). Other matches
 *     of the title are left out: the report says nothing of them. A report none of whose matches is its mark's
 *     gives nothing (counted).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FeedbackExample, feedbackExampleSchema } from '../../shared/feedback/feedback-export';
import type { CandidateExample, TitleScreener } from '../../shared/screening/screen-titles';
import { brandKey, type LabelledTitle } from './labelled-titles';
import { classesOfTitles, type LabelledExample, markLine } from './screening-dataset';

export const FEEDBACK_DIR = path.join(__dirname, '../../data/screening/feedback');

/**
 * How many rows one report stands for in the fit. A report is one title a person read against a live result, as
 * each labelled title of the fixtures is; but a labelled train title enters the fit with the titles made from it
 * (brand removed, respelt, lower-cased, by rule: 21,361 train titles from 4,816 labelled ones, 4.4 each, model
 * 2026-11-27), so one report counts as much as one labelled title with its variants at 5. And it stays a sixth of
 * the shipped trees' least leaf (30 rows): one account's report cannot by itself decide a leaf, while reports of
 * one pattern from several accounts add up.
 */
export const FEEDBACK_WEIGHT = 5;

/** The serials of the reports' marks in the train corpus. */
const FEEDBACK_SERIAL = 'FB-';

export interface FeedbackFile {
  file: string;
  sha256: string;
  lines: number;
}

/** The files named (`--feedback FILE`, in order), or else every .jsonl of the default folder, by name. */
export function feedbackFiles(named: readonly string[], dir = FEEDBACK_DIR): string[] {
  if (named.length > 0) return named.map((f) => path.resolve(f));
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Every report of the files, checked; a line that is not one stops the fit with its file and line number. */
export function readFeedback(files: readonly string[]): { reports: FeedbackExample[]; files: FeedbackFile[] } {
  const reports: FeedbackExample[] = [];
  const read: FeedbackFile[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    const lines = bytes.toString('utf8').split('\n');
    let count = 0;
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      const parsed = feedbackExampleSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${i + 1}: not an exported feedback example`);
      reports.push(parsed.data);
      count++;
    });
    read.push({
      file: path.relative(process.cwd(), file),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      lines: count,
    });
  }
  return { reports, files: read };
}

/** The marks the reports name, as a marks-jsonl batch of live word marks (one per mark, classes from its titles). */
export function feedbackMarkBatch(reports: readonly FeedbackExample[]): string {
  const titlesOf = new Map<string, { mark: string; titles: string[] }>();
  for (const r of reports) {
    if (r.mark === null || brandKey(r.mark) === '') continue;
    const entry = titlesOf.get(brandKey(r.mark)) ?? { mark: r.mark, titles: [] };
    entry.titles.push(r.title);
    titlesOf.set(brandKey(r.mark), entry);
  }
  const lines = [...titlesOf.values()].map((entry, i) =>
    markLine(`${FEEDBACK_SERIAL}${String(i + 1).padStart(6, '0')}`, entry.mark, classesOfTitles(entry.titles)),
  );
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A report as a title of the fit: its own brand group (its mark), so no cross-fit fold holds it out. */
function titleOf(report: FeedbackExample): LabelledTitle {
  const key = report.mark === null ? '' : brandKey(report.mark);
  return {
    set: 'feedback',
    id: `feedback:${report.provenance.feedback_id}`,
    title: report.title,
    brand: report.label === 1 && report.mark ? report.mark : '',
    group: `feedback:${key}`,
    brandKeys: report.label === 1 && key ? [key] : [],
  };
}

/**
 * One match per span of the title: a mark the corpus already holds is also among the reports' marks, and the same
 * words would otherwise count twice. The corpus's own record is kept (its classes are the register's).
 */
function oncePerSpan<T extends Pick<CandidateExample, 'candidate' | 'match'>>(examples: readonly T[]): T[] {
  const bySpan = new Map<string, T>();
  for (const e of examples) {
    const span = `${e.candidate.start}:${e.candidate.end}`;
    const held = bySpan.get(span);
    if (!held || (held.match.serial.startsWith(FEEDBACK_SERIAL) && !e.match.serial.startsWith(FEEDBACK_SERIAL)))
      bySpan.set(span, e);
  }
  return [...bySpan.values()];
}

export interface FeedbackExamples {
  examples: LabelledExample[];
  /** Reports that gave at least one example, and those that gave none (their mark not matched in the title). */
  used: number;
  unmatched: number;
}

/**
 * The train examples of the reports (step 3 above). `raises`: whether the current model raises a match (at or
 * above its 中 threshold), for a false alarm that did not quote its mark.
 */
export async function feedbackExamples(
  screener: TitleScreener,
  reports: readonly FeedbackExample[],
  raises: (features: Float64Array) => boolean,
  weight = FEEDBACK_WEIGHT,
): Promise<FeedbackExamples> {
  const out: FeedbackExamples = { examples: [], used: 0, unmatched: 0 };
  const matched = await screener.examples(reports.map((r) => ({ title: r.title })));
  reports.forEach((report, i) => {
    const title = titleOf(report);
    const key = report.mark === null ? undefined : brandKey(report.mark);
    const chosen = oncePerSpan(
      matched[i]!.filter((e) => (key === undefined ? raises(e.features) : brandKey(e.match.mark) === key)),
    );
    if (chosen.length === 0) {
      out.unmatched++;
      return;
    }
    out.used++;
    for (const e of chosen) out.examples.push({ ...e, title, label: report.label, weight });
  });
  return out;
}
