import codeTables from '../../data/uspto/code-tables/code-tables.json';
import type { DrawingKind, StatusCategory } from './mark-record';

/**
 * USPTO code tables, checked once when the module loads. They ship in data/uspto/code-tables with their
 * provenance (SOURCE.txt, _sources.json), and as code-tables.json, built from the CSVs by
 * builders/build-code-tables.ts so that they bundle into a Lambda. A table that does not have the expected shape
 * stops the process at start rather than silently marking every mark dead.
 */

export interface UsptoStatus {
  code: string;
  description: string;
  /** USPTO's own Live/Dead/Indifferent column, kept verbatim for audits. */
  liveDeadIndicator: string;
  category: StatusCategory;
  isLive: boolean;
}

function readCodeTable(
  fileName: keyof typeof codeTables,
  requiredColumns: readonly string[],
): Record<string, string>[] {
  const rows = codeTables[fileName] as Record<string, string>[];
  const first = rows[0];
  if (!first || requiredColumns.some((column) => !(column in first))) {
    throw new Error(`${fileName}: expected columns ${requiredColumns.join(', ')}`);
  }
  return rows;
}

/**
 * The contract defines is_live as "in force and registered", so only registrations count as live. USPTO's
 * "Live/Pending" applications (filed, examined, published, allowed) are not yet in force: they get category
 * "pending" and isLive false, and screening can still weigh them as a risk through the category. "Indifferent"
 * codes (000 unknown, 622 misassigned serial, 970 assignment-only record, 715 registration cancelled and
 * returned to pendency) say nothing reliable about the mark, so they are "unknown" and not live.
 */
function categoryOf(code: string, description: string, indicator: string): StatusCategory {
  switch (indicator) {
    case 'Live/Registered':
      return 'registered';
    case 'Live/Pending':
      return 'pending';
    // The table has one bare "Live": 717 "REGISTERED - AWAITING DIVISIONAL FEE", a registration that has issued.
    case 'Live':
      return description.startsWith('REGISTERED') ? 'registered' : 'pending';
    default:
      if (indicator === 'Dead' || indicator.startsWith('Dead/')) return 'dead';
      if (indicator === 'Indifferent' || indicator.startsWith('Indifferent/')) return 'unknown';
      throw new Error(`status_codes.csv: code ${code} has an unknown live_dead_indicator "${indicator}"`);
  }
}

const statusByCode: ReadonlyMap<string, UsptoStatus> = new Map(
  readCodeTable('status_codes.csv', ['code', 'description', 'live_dead_indicator']).map((row) => {
    const code = row.code ?? '';
    const description = row.description ?? '';
    const liveDeadIndicator = row.live_dead_indicator ?? '';
    const category = categoryOf(code, description, liveDeadIndicator);
    return [code, { code, description, liveDeadIndicator, category, isLive: category === 'registered' }];
  }),
);

/** Undefined for a code the table does not know: the caller decides (the daily parser rejects the record). */
export function usptoStatusOf(statusCode: string): UsptoStatus | undefined {
  return statusByCode.get(statusCode.trim());
}

/**
 * Position 1 of mark-drawing-code (drawing_codes.csv). Code 1 is "no longer used" for filings since 2003-11-02 but
 * meant "typeset words" before, which is how it appears on old registrations (CUTEX, 1918). Code 4 is a standard
 * character mark (before 2003: words in block form). Code 5 is words in a stylised form: the words matter for title
 * screening and the stylisation for logo search, hence "both". Code 6 (sound, scent: no drawing) has neither.
 */
const DRAWING_KIND_BY_FIRST_DIGIT: Readonly<Record<string, DrawingKind>> = {
  '1': 'word',
  '2': 'design',
  '3': 'both',
  '4': 'word',
  '5': 'both',
  '6': 'unknown',
};

const knownDrawingCodes = new Set(readCodeTable('drawing_codes.csv', ['code', 'description']).map((row) => row.code));
for (const code of knownDrawingCodes) {
  if (code === undefined || !(code in DRAWING_KIND_BY_FIRST_DIGIT)) {
    throw new Error(`drawing_codes.csv: code ${code} has no drawing kind; extend DRAWING_KIND_BY_FIRST_DIGIT`);
  }
}

/** "4000" -> "word". A missing or unknown code gives "unknown": drawing kind is never a reason to drop a mark. */
export function drawingKindOfUsptoCode(markDrawingCode: string | undefined): DrawingKind {
  const firstDigit = markDrawingCode?.trim().charAt(0) ?? '';
  if (!knownDrawingCodes.has(firstDigit)) return 'unknown';
  return DRAWING_KIND_BY_FIRST_DIGIT[firstDigit] ?? 'unknown';
}
