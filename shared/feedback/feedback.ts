/**
 * A seller's report on one screening result: the title raised a mark it does not use (false_alarm), named no mark
 * where it uses a brand (missed_brand), or named the wrong one (wrong_mark). Kept per account; an operator exports
 * the reports as labelled examples for the brand-use model (shared/feedback/feedback-export.ts).
 */
import { randomBase62 } from '../metering/api-keys';

export const FEEDBACK_KINDS = ['false_alarm', 'missed_brand', 'wrong_mark'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

export const MAX_NOTE_CHARS = 1000;

export interface FeedbackRecord {
  accountId: string;
  /** Time-ordered (feedbackIdAt): the table's sort key. */
  feedbackId: string;
  kind: FeedbackKind;
  /** The listing title as it was screened. */
  title: string;
  /** missed_brand: the brand the title uses. */
  brand?: string;
  /** wrong_mark: the mark the result should have named. */
  mark?: string;
  /** The mark the result named (its top_conflict), as the client quotes it. */
  topConflict?: string;
  note?: string;
  /** The batch-screen call and the item it answered; or a watched item instead. */
  requestId?: string;
  itemIndex?: number;
  watchItemId?: string;
  /** The key that sent the report, and the report's own request. */
  keyId: string;
  reportRequestId: string;
  createdAt: string;
}

/**
 * `fb_` + the instant to the millisecond (YYYYMMDDHHmmssSSS, UTC) + 10 random base62 characters: ids of one account
 * sort by the time they were made, and two reports in the same millisecond still differ.
 */
export function newFeedbackId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:.TZ]/g, '');
  return `fb_${stamp}_${randomBase62(10)}`;
}

/** The instant a feedback id was made (undefined for a string that is not one). */
export function feedbackIdAt(feedbackId: string): Date | undefined {
  const m = /^fb_(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})_/.exec(feedbackId);
  if (!m) return undefined;
  const at = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
