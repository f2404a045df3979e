import * as z from 'zod';
import { decodeBatchText, type BatchInput } from './batch-text-decoder';
import {
  calendarDateSchema,
  describeIssues,
  DRAWING_KINDS,
  excerpt,
  MARK_TEXT_MAX_CHARS,
  markRecordSchema,
  MARKETS,
  sortedNiceClasses,
  STATUS_CATEGORIES,
  toNiceClass,
  withoutUndefined,
  type BatchOptions,
  type Market,
  type ParsedMark,
} from './mark-record';

/**
 * The canonical JSONL batch: one JSON object per line, UTF-8, for the CN beta store and for any source that is not
 * a USPTO file (sample corpora, partner feeds). The format is documented in data/FORMATS.md; the schema below is
 * its single definition. Field names are snake_case like the public API.
 *
 * Input: the file's bytes and the batch (date, source, market). Every line belongs to the batch's market.
 * Output: one result per non-blank line, with its 1-based line number: a record, or the reason the line was
 * refused. The CN store holds only marks in force, so a CN line with is_live false is refused, not stored dead.
 * A serial repeated within the file is yielded again with duplicate: true; the store applies lines in order.
 */

export const JSONL_MAX_LINE_CHARS = 64 * 1024;
const GOODS_INPUT_MAX_CHARS = 20_000;

const niceClassInput = z.union([z.number().int(), z.string()]).transform((value, context) => {
  const niceClass = toNiceClass(value);
  if (niceClass === undefined) {
    context.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a Nice class (1 to 45)` });
    return z.NEVER;
  }
  return niceClass;
});

export const markJsonlLineSchema = z
  .object({
    serial: z.string().min(1),
    registration_number: z.string().min(1).optional(),
    mark: z.string().max(MARK_TEXT_MAX_CHARS, { message: `must be at most ${MARK_TEXT_MAX_CHARS} characters` }),
    transliteration: z.string().min(1).optional(),
    nice: z.array(niceClassInput).max(45).default([]),
    is_live: z.boolean(),
    status_code: z.string().min(1).optional(),
    status_category: z.enum(STATUS_CATEGORIES).optional(),
    owner: z.string().min(1).optional(),
    filing_date: calendarDateSchema.optional(),
    drawing_kind: z.enum(DRAWING_KINDS).default('unknown'),
    goods: z.string().max(GOODS_INPUT_MAX_CHARS).optional(),
    market: z.enum(MARKETS).optional(),
  })
  .strict();

export type MarkJsonlLine = z.input<typeof markJsonlLineSchema>;

export interface MarkJsonlOptions extends BatchOptions {
  market: Market;
}

function resultOfLine(text: string, line: number, options: MarkJsonlOptions, seenSerials: Set<string>): ParsedMark {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${error instanceof Error ? error.message : String(error)})`, line };
  }
  const serialHint =
    typeof json === 'object' && json !== null && 'serial' in json && typeof json.serial === 'string'
      ? json.serial.slice(0, 40)
      : undefined;
  const rejected = (error: string): ParsedMark =>
    serialHint === undefined ? { ok: false, error, line } : { ok: false, error, line, serial: serialHint };

  const parsedLine = markJsonlLineSchema.safeParse(json);
  if (!parsedLine.success) return rejected(describeIssues(parsedLine.error));
  const fields = parsedLine.data;

  if (fields.market !== undefined && fields.market !== options.market) {
    return rejected(`market ${fields.market} does not match the batch's market ${options.market}`);
  }
  if (options.market === 'CN' && !fields.is_live) {
    return rejected('the CN store holds only marks in force: is_live must be true');
  }
  const statusCategory = fields.status_category ?? (fields.is_live ? 'registered' : 'dead');
  const goods = fields.goods?.trim();
  const parsedRecord = markRecordSchema.safeParse(
    withoutUndefined({
      serial: fields.serial.trim(),
      registrationNumber: fields.registration_number?.trim(),
      markText: fields.mark.replace(/\s+/g, ' ').trim(),
      transliteration: fields.transliteration?.trim(),
      niceClasses: sortedNiceClasses(fields.nice),
      statusCode: fields.status_code?.trim() ?? statusCategory.toUpperCase(),
      statusCategory,
      isLive: fields.is_live,
      owner: fields.owner?.replace(/\s+/g, ' ').trim(),
      filingDate: fields.filing_date,
      drawingKind: fields.drawing_kind,
      goodsExcerpt: goods ? excerpt(goods) : undefined,
      market: options.market,
      source: options.source,
      batchDate: options.batchDate,
    }),
  );
  if (!parsedRecord.success) return rejected(describeIssues(parsedRecord.error));
  const record = parsedRecord.data;
  const duplicate = seenSerials.has(record.serial);
  seenSerials.add(record.serial);
  return { ok: true, record, line, duplicate };
}

/** Lines of a text stream, each with its number; an overlong line is reported by length, never held whole. */
async function* numberedLines(
  input: BatchInput,
): AsyncGenerator<{ line: number; text: string } | { line: number; overlongChars: number }, void, undefined> {
  let partial = '';
  let overlongChars = 0;
  let lineNumber = 1;
  for await (const chunk of decodeBatchText(input, { isXml: false })) {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, newline);
      if (overlongChars > 0 || partial.length + piece.length > JSONL_MAX_LINE_CHARS) {
        yield { line: lineNumber, overlongChars: overlongChars + partial.length + piece.length };
      } else {
        yield { line: lineNumber, text: partial + piece };
      }
      partial = '';
      overlongChars = 0;
      lineNumber += 1;
      start = newline + 1;
    }
    const rest = chunk.slice(start);
    if (overlongChars > 0 || partial.length + rest.length > JSONL_MAX_LINE_CHARS) {
      overlongChars += partial.length + rest.length;
      partial = '';
    } else {
      partial += rest;
    }
  }
  if (overlongChars > 0) yield { line: lineNumber, overlongChars };
  else if (partial.length > 0) yield { line: lineNumber, text: partial };
}

export async function* parseMarkJsonl(
  input: BatchInput,
  options: MarkJsonlOptions,
): AsyncGenerator<ParsedMark, void, undefined> {
  const seenSerials = new Set<string>();
  for await (const entry of numberedLines(input)) {
    if ('overlongChars' in entry) {
      yield {
        ok: false,
        error: `line is ${entry.overlongChars} characters long (at most ${JSONL_MAX_LINE_CHARS})`,
        line: entry.line,
      };
      continue;
    }
    // Windows line endings and blank lines (a trailing newline, a separator) are not records.
    const text = entry.text.endsWith('\r') ? entry.text.slice(0, -1) : entry.text;
    if (text.trim() === '') continue;
    yield resultOfLine(text, entry.line, options, seenSerials);
  }
}
