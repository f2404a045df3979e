import * as z from 'zod';

/**
 * The one shape every data source (USPTO daily XML, TSDR status XML, canonical JSONL for CN and other sources)
 * is turned into before it reaches a store. Lookup keys are deliberately absent: screening owns how text becomes
 * keys, so a change of normalisation never requires re-parsing the sources.
 */

export const MARK_TEXT_MAX_CHARS = 1000;
export const GOODS_EXCERPT_MAX_CHARS = 300;
export const OWNER_MAX_CHARS = 300;

export const MARKETS = ['US', 'CN'] as const;
export type Market = (typeof MARKETS)[number];

export const DRAWING_KINDS = ['word', 'design', 'both', 'unknown'] as const;
export type DrawingKind = (typeof DRAWING_KINDS)[number];

/**
 * `isLive` follows the API contract: the mark is registered and in force. A pending application is not live, yet it
 * still matters for screening (it may register soon), so the wider lifecycle is kept next to it.
 */
export const STATUS_CATEGORIES = ['registered', 'pending', 'dead', 'unknown'] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

const NICE_CLASS_PATTERN = /^(0[1-9]|[1-3][0-9]|4[0-5])$/;

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}

export const calendarDateSchema = z
  .string()
  .refine(isCalendarDate, { message: 'must be a real calendar date written YYYY-MM-DD' });

export const niceClassSchema = z
  .string()
  .regex(NICE_CLASS_PATTERN, { message: 'must be a Nice class written with two digits, "01" to "45"' });

export const markRecordSchema = z
  .object({
    serial: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, { message: 'must be 1 to 40 letters, digits, ".", "_" or "-"' }),
    registrationNumber: z.string().min(1).max(40).optional(),
    markText: z.string().max(MARK_TEXT_MAX_CHARS),
    transliteration: z.string().min(1).max(MARK_TEXT_MAX_CHARS).optional(),
    niceClasses: z.array(niceClassSchema).max(45),
    statusCode: z.string().min(1).max(40),
    statusCategory: z.enum(STATUS_CATEGORIES),
    isLive: z.boolean(),
    owner: z.string().min(1).max(OWNER_MAX_CHARS).optional(),
    filingDate: calendarDateSchema.optional(),
    drawingKind: z.enum(DRAWING_KINDS),
    goodsExcerpt: z.string().min(1).max(GOODS_EXCERPT_MAX_CHARS).optional(),
    market: z.enum(MARKETS),
    source: z.string().min(1).max(200),
    batchDate: calendarDateSchema,
  })
  .strict()
  .refine((record) => record.isLive === (record.statusCategory === 'registered'), {
    message: 'isLive must be true exactly when statusCategory is "registered"',
    path: ['isLive'],
  });

export type MarkRecord = z.infer<typeof markRecordSchema>;

/** What every batch parser yields per record: one bad record is reported, never thrown, so the batch goes on. */
export type ParsedMark =
  | { ok: true; record: MarkRecord; line: number; duplicate: boolean }
  | { ok: false; error: string; line: number; serial?: string };

export interface BatchOptions {
  batchDate: string;
  source: string;
}

/** A batch's id: its data date and source. Ids start with the date, so the newest batch of a scope sorts first. */
export function batchIdOf(batchDate: string, source: string): string {
  return `${batchDate}#${source}`;
}

/** Turns zod issues into one line a person can act on in a rejects file. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Keeps the excerpt readable when cut: whole words where possible, an ellipsis to show the cut. */
export function excerpt(text: string, maxChars: number = GOODS_EXCERPT_MAX_CHARS): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= maxChars) return collapsed;
  const room = collapsed.slice(0, maxChars - 1);
  const lastSpace = room.lastIndexOf(' ');
  const cut = lastSpace > maxChars * 0.6 ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s,;:]+$/, '')}…`;
}

/** Accepts 9, "9", "09" or "009" (the USPTO writes three digits) and returns "09"; anything else is not a Nice class. */
export function toNiceClass(value: string | number): string | undefined {
  const digits = String(value).trim();
  if (!/^\d{1,3}$/.test(digits)) return undefined;
  const number = Number(digits);
  if (number < 1 || number > 45) return undefined;
  return String(number).padStart(2, '0');
}

/** Sorted and without repeats, so two parses of the same mark compare equal whatever the source order. */
export function sortedNiceClasses(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** Optional record fields are absent rather than undefined, so records compare and serialise cleanly. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
