/**
 * The synthetic daily XML document: prologue, root header, case-files grouped by action key, written to a sink in
 * chunks of about 64 KiB with back-pressure.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { CaseFileContext } from './case-file';
import { caseFileXml } from './case-file-xml';
import { dayOf } from './field-values';
import { drawFrom, seededRandom } from './random';
import { type Lifecycle, prologue, statusCodesByLifecycle } from './reference-data';

export const SYNTHETIC_FIRST_SERIAL = 60_000_000;
/** Series 60 to 69: ten million serials that no real daily file uses. */
export const SYNTHETIC_MAX_RECORDS = 10_000_000;

export interface SyntheticDailyXmlOptions {
  records: number;
  seed?: number;
  /** Share of dead marks (abandoned, cancelled, expired), 0 to 1. */
  deadShare?: number;
  /** Share of pending applications among the marks that are not dead, 0 to 1. */
  pendingShare?: number;
  /** The file's transaction date, YYYYMMDD. Fixed by default so output does not depend on the clock. */
  transactionDate?: string;
  /** The first case file's serial (at least SYNTHETIC_FIRST_SERIAL): parts of one generated backfile hold distinct serials. */
  firstSerial?: number;
}

export interface SyntheticDailyXmlSummary {
  records: number;
  registered: number;
  pending: number;
  dead: number;
  firstSerial: string;
  lastSerial: string;
  chars: number;
}

const CHUNK_CHARS = 64 * 1024;
const CASE_FILES_PER_ACTION_KEY = 1000;
const ACTION_KEYS = ['TX', 'IB'];

function validated(options: SyntheticDailyXmlOptions): Required<SyntheticDailyXmlOptions> {
  const {
    records,
    seed = 1,
    deadShare = 0.2,
    pendingShare = 0.4,
    transactionDate = '20250102',
    firstSerial = SYNTHETIC_FIRST_SERIAL,
  } = options;
  if (!Number.isInteger(firstSerial) || firstSerial < SYNTHETIC_FIRST_SERIAL || firstSerial + records > 70_000_000)
    throw new RangeError('firstSerial must keep every serial within 60000000-69999999 (never a real series)');
  if (!Number.isInteger(records) || records < 0 || records > SYNTHETIC_MAX_RECORDS) {
    throw new RangeError(`records must be an integer from 0 to ${SYNTHETIC_MAX_RECORDS}`);
  }
  if (!Number.isInteger(seed)) throw new RangeError('seed must be an integer');
  for (const [name, share] of [
    ['deadShare', deadShare],
    ['pendingShare', pendingShare],
  ] as const) {
    if (!(share >= 0 && share <= 1)) throw new RangeError(`${name} must be between 0 and 1`);
  }
  dayOf(transactionDate);
  return { records, seed, deadShare, pendingShare, transactionDate, firstSerial };
}

/**
 * Writes a whole daily XML document to the sink (the sink is not ended: the caller owns it). Waits for 'drain'
 * whenever the sink's buffer is full, and rejects if the sink fails.
 */
export async function writeSyntheticDailyXml(
  sink: Writable,
  options: SyntheticDailyXmlOptions,
): Promise<SyntheticDailyXmlSummary> {
  const { records, seed, deadShare, pendingShare, transactionDate, firstSerial } = validated(options);
  const draw = drawFrom(seededRandom(seed));
  const context: CaseFileContext = {
    draw,
    statusCodes: statusCodesByLifecycle(),
    transactionDay: dayOf(transactionDate),
  };
  const summary: SyntheticDailyXmlSummary = {
    records,
    registered: 0,
    pending: 0,
    dead: 0,
    firstSerial: String(firstSerial),
    lastSerial: String(firstSerial + Math.max(records, 1) - 1),
    chars: 0,
  };

  let buffer = '';
  const flush = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const chunk = buffer;
    buffer = '';
    summary.chars += chunk.length;
    if (!sink.write(chunk)) await once(sink, 'drain');
  };
  const append = async (text: string): Promise<void> => {
    buffer += text;
    if (buffer.length >= CHUNK_CHARS) await flush();
  };

  await append(prologue());
  await append(
    '<trademark-applications-daily>\n  <version>\n    <version-no>2.0</version-no>\n' +
      '    <version-date>20041108</version-date>\n  </version>\n' +
      `  <creation-datetime>${transactionDate}2208</creation-datetime>\n` +
      '  <application-information>\n    <file-segments>\n      <file-segment>TRMK</file-segment>\n',
  );
  for (let index = 0; index < records; index += 1) {
    if (index % CASE_FILES_PER_ACTION_KEY === 0) {
      if (index > 0) await append('      </action-keys>\n');
      const actionKey = ACTION_KEYS[(index / CASE_FILES_PER_ACTION_KEY) % ACTION_KEYS.length] ?? 'TX';
      await append(`      <action-keys>\n        <action-key>${actionKey}</action-key>\n`);
    }
    const roll = draw.random();
    const lifecycle: Lifecycle = roll < deadShare ? 'dead' : draw.random() < pendingShare ? 'pending' : 'registered';
    summary[lifecycle] += 1;
    await append(caseFileXml(firstSerial + index, lifecycle, context));
  }
  if (records > 0) await append('      </action-keys>\n');
  await append('    </file-segments>\n  </application-information>\n</trademark-applications-daily>\n');
  await flush();
  return summary;
}
