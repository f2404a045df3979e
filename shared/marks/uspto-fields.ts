import {
  describeIssues,
  excerpt,
  MARK_TEXT_MAX_CHARS,
  markRecordSchema,
  OWNER_MAX_CHARS,
  sortedNiceClasses,
  toNiceClass,
  withoutUndefined,
  type BatchOptions,
  type MarkRecord,
} from './mark-record';
import { drawingKindOfUsptoCode, usptoStatusOf } from './uspto-status';

/** Field conventions shared by the USPTO daily XML and TSDR status XML parsers. */

/**
 * Among case-file owners the highest party type is the latest owner (10 original applicant, 20 owner at
 * publication, 30 original registrant, 40+ later owners after registration; party_types.csv). Type 70 is a legacy
 * correspondent entry, not an owner. Ties keep the first listed.
 */
export function currentOwnerName(owners: readonly { partyType?: number; name?: string }[]): string | undefined {
  let best: { partyType: number; name: string } | undefined;
  for (const owner of owners) {
    const name = owner.name?.replace(/\s+/g, ' ').trim();
    if (!name) continue;
    const partyType = owner.partyType ?? 0;
    if (partyType === 70) continue;
    if (best === undefined || partyType > best.partyType) best = { partyType, name };
  }
  return best?.name;
}

/** USPTO dates come as YYYYMMDD (daily XML) or YYYY-MM-DD with a zone offset (TSDR "2000-05-09-04:00"). */
export function usptoDateToIso(value: string | undefined): string | undefined {
  const trimmed = value?.trim() ?? '';
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(trimmed);
  const dashed = /^(\d{4})-(\d{2})-(\d{2})/.exec(trimmed);
  const parts = compact ?? dashed;
  if (!parts) return undefined;
  const iso = `${parts[1]}-${parts[2]}-${parts[3]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

/** "0000000" is how the daily XML says "not registered". */
export function registrationNumberOrNone(value: string | undefined): string | undefined {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || /^0+$/.test(trimmed) ? undefined : trimmed;
}

/**
 * Goods and services text carries USPTO editing marks: [..] deleted goods, ((..)) goods no longer claimed, *..*
 * added wording. The excerpt shows what the mark covers today, so deleted and withdrawn goods go and the
 * asterisks are dropped around the words they added.
 */
export function currentGoodsText(text: string): string {
  return text
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\(\([^)]*\)\)/g, ' ')
    .replace(/\*/g, ' ')
    .replace(/\s+([,;:.])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The raw fields both USPTO formats provide, before any judgement. */
export interface UsptoMarkFields {
  serial?: string;
  registrationNumber?: string;
  filingDate?: string;
  statusCode?: string;
  markText?: string;
  /** Length of the mark text in the source, when only a prefix of an absurdly long one was kept. */
  markTextLength?: number;
  drawingCode?: string;
  /** Classes as the USPTO writes them ("009"); non-Nice codes (US-only "A", "B", "200") are dropped. */
  classNumbers: readonly string[];
  goodsTexts: readonly string[];
  owners: readonly { partyType?: number; name?: string }[];
}

export type UsptoMarkResult = { ok: true; record: MarkRecord } | { ok: false; error: string; serial?: string };

/** The rules both USPTO parsers share: what makes a record unusable and how each field is normalised. */
export function usptoMarkFrom(fields: UsptoMarkFields, options: BatchOptions): UsptoMarkResult {
  const serial = fields.serial?.trim();
  if (!serial) return { ok: false, error: 'no serial number' };
  if (!/^\d{8}$/.test(serial)) {
    return { ok: false, error: `serial number "${serial.slice(0, 40)}" is not 8 digits`, serial: serial.slice(0, 40) };
  }
  const markText = (fields.markText ?? '').replace(/\s+/g, ' ').trim();
  const markTextLength = Math.max(fields.markTextLength ?? 0, markText.length);
  if (markTextLength > MARK_TEXT_MAX_CHARS) {
    return {
      ok: false,
      error: `mark text is ${markTextLength} characters long (at most ${MARK_TEXT_MAX_CHARS})`,
      serial,
    };
  }
  const statusCode = fields.statusCode?.trim();
  if (!statusCode) return { ok: false, error: 'no status code', serial };
  const status = usptoStatusOf(statusCode);
  if (status === undefined) {
    return { ok: false, error: `status code "${statusCode.slice(0, 20)}" is not in the USPTO status table`, serial };
  }
  const goods = fields.goodsTexts
    .map(currentGoodsText)
    .filter((text) => text.length > 0)
    .join('; ');
  const parsed = markRecordSchema.safeParse(
    withoutUndefined({
      serial,
      registrationNumber: registrationNumberOrNone(fields.registrationNumber),
      markText,
      niceClasses: sortedNiceClasses(
        fields.classNumbers.map((code) => toNiceClass(code)).filter((code): code is string => code !== undefined),
      ),
      statusCode,
      statusCategory: status.category,
      isLive: status.isLive,
      // An owner name is context, not a reason to lose the mark: an overlong one is cut, not refused.
      owner: currentOwnerName(fields.owners)?.slice(0, OWNER_MAX_CHARS),
      filingDate: usptoDateToIso(fields.filingDate),
      drawingKind: drawingKindOfUsptoCode(fields.drawingCode),
      goodsExcerpt: goods.length > 0 ? excerpt(goods) : undefined,
      market: 'US',
      source: options.source,
      batchDate: options.batchDate,
    }),
  );
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error), serial };
  return { ok: true, record: parsed.data };
}
