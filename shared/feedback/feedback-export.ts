/**
 * Sellers' reports as labelled examples of the brand-use model, one JSON line each, the shape
 * `npm run train:screen -- --feedback FILE` reads (builders/screening/feedback-examples.ts):
 *   false_alarm   the title, label 0 (no brand use) for the mark the result raised (its top_conflict as the seller
 *                 quoted it; null when not quoted: the trainer then takes the marks the current model raises);
 *   missed_brand  the title, label 1 (brand use) for the brand the seller named;
 *   wrong_mark    with the mark it should have named: label 1 for that mark. The mark it did raise is not labelled
 *                 (a title may use both, "Apple Watch band" naming APPLE and APPLE WATCH); without a mark the
 *                 report says nothing a fit can use and is skipped (counted).
 * Each line carries its provenance: the account as a hash (never its id), the report's id and its date. The note
 * is never exported: it is for the people who read the reports, not for the fit.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { FEEDBACK_KINDS, type FeedbackKind, type FeedbackRecord } from './feedback';

export const feedbackExampleSchema = z.object({
  title: z.string().min(1),
  mark: z.string().min(1).nullable(),
  label: z.union([z.literal(0), z.literal(1)]),
  kind: z.enum(FEEDBACK_KINDS),
  provenance: z.object({
    account: z.string().regex(/^[0-9a-f]{16}$/),
    feedback_id: z.string().min(1),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  }),
});

export type FeedbackExample = z.infer<typeof feedbackExampleSchema>;

/** The account as the export shows it: 16 hex characters of a SHA-256, enough to group reports by account. */
export function accountHash(accountId: string): string {
  return createHash('sha256').update(`tmk-feedback\n${accountId}`).digest('hex').slice(0, 16);
}

export type SkipReason = 'wrong_mark_without_mark';

/** The labelled example a report gives, or why it gives none. */
export function exampleOf(record: FeedbackRecord): FeedbackExample | { skipped: SkipReason } {
  const labelled = (mark: string | null, label: 0 | 1): FeedbackExample => ({
    title: record.title,
    mark,
    label,
    kind: record.kind,
    provenance: {
      account: accountHash(record.accountId),
      feedback_id: record.feedbackId,
      date: record.createdAt.slice(0, 10),
    },
  });
  switch (record.kind) {
    case 'false_alarm':
      return labelled(record.topConflict ?? null, 0);
    case 'missed_brand':
      return labelled(record.brand!, 1);
    case 'wrong_mark':
      return record.mark ? labelled(record.mark, 1) : { skipped: 'wrong_mark_without_mark' };
  }
}

export interface FeedbackExport {
  lines: string[];
  exported: Record<FeedbackKind, number>;
  skipped: Record<SkipReason, number>;
}

/** Every report of the stream as JSON lines, oldest first (by id: ids sort by time), with counts. */
export async function exportFeedback(records: AsyncIterable<FeedbackRecord>): Promise<FeedbackExport> {
  const all: FeedbackRecord[] = [];
  for await (const record of records) all.push(record);
  all.sort((a, b) => (a.feedbackId < b.feedbackId ? -1 : a.feedbackId > b.feedbackId ? 1 : 0));
  const out: FeedbackExport = {
    lines: [],
    exported: { false_alarm: 0, missed_brand: 0, wrong_mark: 0 },
    skipped: { wrong_mark_without_mark: 0 },
  };
  for (const record of all) {
    const example = exampleOf(record);
    if ('skipped' in example) {
      out.skipped[example.skipped]++;
      continue;
    }
    out.exported[record.kind]++;
    out.lines.push(JSON.stringify(example));
  }
  return out;
}
