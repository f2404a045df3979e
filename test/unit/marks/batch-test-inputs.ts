import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

/** Inputs the batch parser tests build around the real samples: chunked streams, tiny zips, daily XML skeletons. */

export const FIXTURES_DIR = path.join(__dirname, '../../fixtures');
export const DAILY_SAMPLE_PATH = path.join(FIXTURES_DIR, 'uspto/daily-xml-sample/seed.xml');
export const TSDR_SAMPLES_DIR = path.join(FIXTURES_DIR, 'uspto/tsdr-samples');

export const BATCH = { batchDate: '2018-02-18', source: 'uspto-daily-test' } as const;

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

/** Collects what a generator yields before it throws, and the error it throws. */
export async function collectUntilError<T>(items: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const collected: T[] = [];
  try {
    for await (const item of items) collected.push(item);
  } catch (error) {
    return { items: collected, error };
  }
  return { items: collected, error: undefined };
}

/** Splits bytes at the given sizes (repeating the last one), the way a file or network stream would. */
export async function* inChunks(bytes: Buffer, ...sizes: number[]): AsyncGenerator<Buffer> {
  let offset = 0;
  let index = 0;
  while (offset < bytes.length) {
    const size = Math.max(1, sizes[Math.min(index, sizes.length - 1)] ?? 64 * 1024);
    yield bytes.subarray(offset, offset + size);
    offset += size;
    index += 1;
  }
}

export interface CaseFileFields {
  serial?: string;
  registrationNumber?: string;
  filingDate?: string;
  statusCode?: string;
  mark?: string;
  drawingCode?: string;
  classes?: string[];
  goods?: string;
  owner?: string;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A case-file in the daily XML layout, with only the fields a test sets. */
export function caseFileXml(fields: CaseFileFields): string {
  const element = (name: string, value: string | undefined): string =>
    value === undefined ? '' : `<${name}>${escapeXml(value)}</${name}>\n`;
  return [
    '<case-file>\n',
    element('serial-number', fields.serial),
    element('registration-number', fields.registrationNumber),
    '<case-file-header>\n',
    element('filing-date', fields.filingDate),
    element('status-code', fields.statusCode),
    element('mark-identification', fields.mark),
    element('mark-drawing-code', fields.drawingCode),
    '</case-file-header>\n',
    fields.goods === undefined
      ? ''
      : `<case-file-statements><case-file-statement><type-code>GS0251</type-code>${element('text', fields.goods)}</case-file-statement></case-file-statements>\n`,
    (fields.classes ?? [])
      .map(
        (code) =>
          `<classifications><classification>${element('international-code', code)}</classification></classifications>\n`,
      )
      .join(''),
    fields.owner === undefined
      ? ''
      : `<case-file-owners><case-file-owner><party-type>10</party-type>${element('party-name', fields.owner)}</case-file-owner></case-file-owners>\n`,
    '</case-file>\n',
  ].join('');
}

export function dailyXmlDocument(caseFiles: string[], declaration = '<?xml version="1.0" encoding="utf-8"?>'): string {
  return [
    declaration,
    '<trademark-applications-daily>',
    '<version><version-no>2.0</version-no><version-date>20041108</version-date></version>',
    '<application-information><file-segments><file-segment>TRMK</file-segment><action-keys>',
    '<action-key>IB</action-key>',
    ...caseFiles,
    '</action-keys></file-segments></application-information>',
    '</trademark-applications-daily>',
    '',
  ].join('\n');
}

/** A minimal zip writer (stored or deflated entries), enough to test reading real archives without a zip library. */
export function tinyZip(entries: { name: string; data: Buffer; deflate?: boolean; claimedSize?: number }[]): Buffer {
  const localParts: Buffer[] = [];
  const centralParts: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = entry.deflate ? deflateRawSync(entry.data) : entry.data;
    const checksum = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.claimedSize ?? entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.deflate ? 8 : 0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.claimedSize ?? entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    localParts.push(local, name, compressed);
    centralParts.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralDirectory = Buffer.concat(centralParts);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...localParts, centralDirectory, end]);
}
