import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import * as z from 'zod';
import { BatchFormatError, BatchSyntaxError } from './batch-errors';
import { decodeBatchText, type BatchInput } from './batch-text-decoder';
import { calendarDateSchema, describeIssues } from './mark-record';

/**
 * The TRO list: brands whose owners file "Schedule A" cases (temporary restraining orders against online sellers).
 * The CSV has one row per known case or report (columns brand, plaintiff, case_no, court, filed, source,
 * checked_against_docket; data/tro/SOURCE.txt); screening needs one entry per brand, so rows are aggregated.
 *
 * Input: the CSV bytes. Output: the entries in order of first appearance and the refused rows with their line.
 * A whole file with a wrong header or broken quoting ends with BatchFormatError / BatchSyntaxError.
 *
 * caseCount is a lower bound: the number of distinct case numbers, and at least 1 for a brand named only by a
 * report without a case number (such a row may describe a case already counted, so it adds nothing beyond 1).
 */

export const TRO_CSV_COLUMNS = [
  'brand',
  'plaintiff',
  'case_no',
  'court',
  'filed',
  'source',
  'checked_against_docket',
] as const;
const REQUIRED_COLUMNS = ['brand'] as const;

export interface TroEntry {
  brand: string;
  plaintiffs: string[];
  caseCount: number;
  caseNumbers: string[];
  courts: string[];
  lastFilingDate?: string;
  sources: string[];
  /** True only when every row behind the entry was checked against the court docket. */
  checkedAgainstDocket: boolean;
}

export interface TroRowReject {
  line: number;
  error: string;
  brand?: string;
}

export interface TroList {
  entries: TroEntry[];
  rejects: TroRowReject[];
}

const optionalText = (maxChars: number) =>
  z
    .string()
    .max(maxChars)
    .transform((value) => value.replace(/\s+/g, ' ').trim() || undefined)
    .optional();

const troRowSchema = z.object({
  brand: z
    .string()
    .transform((value) => value.replace(/\s+/g, ' ').trim())
    .pipe(z.string().min(1, { message: 'is empty' }).max(200)),
  plaintiff: optionalText(300),
  case_no: optionalText(100),
  court: optionalText(100),
  filed: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(calendarDateSchema.optional())
    .optional(),
  source: optionalText(500),
  checked_against_docket: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['', 'yes', 'no', 'true', 'false'], { message: 'must be yes or no' }))
    .optional(),
});

/** Brands match across rows whatever their case or spacing ("Ray-Ban", "ray-ban "). */
export function troBrandKey(brand: string): string {
  return brand.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

interface EntryDraft {
  brand: string;
  plaintiffs: Set<string>;
  caseNumbers: Set<string>;
  courts: Set<string>;
  sources: Set<string>;
  lastFilingDate?: string;
  checkedAgainstDocket: boolean;
}

function toEntry(draft: EntryDraft): TroEntry {
  const entry: TroEntry = {
    brand: draft.brand,
    plaintiffs: [...draft.plaintiffs],
    caseCount: Math.max(draft.caseNumbers.size, 1),
    caseNumbers: [...draft.caseNumbers],
    courts: [...draft.courts],
    sources: [...draft.sources],
    checkedAgainstDocket: draft.checkedAgainstDocket,
  };
  if (draft.lastFilingDate !== undefined) entry.lastFilingDate = draft.lastFilingDate;
  return entry;
}

export async function readTroList(input: BatchInput): Promise<TroList> {
  const csvParser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const text = Readable.from(decodeBatchText(input, { isXml: false }));
  text.on('error', (error) => csvParser.destroy(error));
  text.pipe(csvParser);

  const drafts = new Map<string, EntryDraft>();
  const rejects: TroRowReject[] = [];
  let header: string[] | undefined;
  try {
    for await (const { record, info } of csvParser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (header === undefined) {
        header = record.map((column) => column.trim().toLowerCase());
        const missing = REQUIRED_COLUMNS.filter((column) => !header?.includes(column));
        if (missing.length > 0) {
          throw new BatchFormatError(
            `the header has no ${missing.join(', ')} column (expected ${TRO_CSV_COLUMNS.join(', ')})`,
            line,
          );
        }
        continue;
      }
      if (record.length !== header.length) {
        rejects.push({ line, error: `row has ${record.length} fields, the header has ${header.length}` });
        continue;
      }
      const columns = header;
      const row = Object.fromEntries(record.map((value, index) => [columns[index] ?? `column_${index + 1}`, value]));
      const parsed = troRowSchema.safeParse(row);
      if (!parsed.success) {
        const brand = typeof row.brand === 'string' && row.brand.trim() ? row.brand.trim() : undefined;
        rejects.push({ line, error: describeIssues(parsed.error), ...(brand ? { brand } : {}) });
        continue;
      }
      const fields = parsed.data;
      const key = troBrandKey(fields.brand);
      const draft: EntryDraft = drafts.get(key) ?? {
        brand: fields.brand,
        plaintiffs: new Set(),
        caseNumbers: new Set(),
        courts: new Set(),
        sources: new Set(),
        checkedAgainstDocket: true,
      };
      drafts.set(key, draft);
      if (fields.plaintiff) draft.plaintiffs.add(fields.plaintiff);
      if (fields.case_no) draft.caseNumbers.add(fields.case_no);
      if (fields.court) draft.courts.add(fields.court);
      if (fields.source) draft.sources.add(fields.source);
      if (fields.filed && (draft.lastFilingDate === undefined || fields.filed > draft.lastFilingDate)) {
        draft.lastFilingDate = fields.filed;
      }
      const checked = fields.checked_against_docket === 'yes' || fields.checked_against_docket === 'true';
      draft.checkedAgainstDocket &&= checked;
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === 'number' ? error.lines : 0;
      throw new BatchSyntaxError(error.message, line);
    }
    throw error;
  }
  if (header === undefined) throw new BatchFormatError('the file is empty: no header row', 1);
  return { entries: [...drafts.values()].map(toEntry), rejects };
}
