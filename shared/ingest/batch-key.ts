/**
 * Where a batch lands in the data bucket says what it is:
 *   incoming/<kind>/<market>/<YYYY-MM-DD>/<file>
 * e.g. incoming/uspto-daily/US/2026-11-20/apc261120.zip, incoming/marks-jsonl/CN/2026-11-20/cn-batch.jsonl.gz.
 * A CN batch's coverage record travels beside it as `<file>.coverage.json`.
 *
 * A logo batch is a folder: its manifest and the images the manifest names, by paths relative to the folder:
 *   incoming/logos/<market>/<YYYY-MM-DD>/<batch-name>/logos.jsonl
 *   incoming/logos/<market>/<YYYY-MM-DD>/<batch-name>/<image path>
 * Only the manifest starts the batch, so the images are uploaded before it.
 */
import { MARKETS, isCalendarDate, type Market } from '../marks/mark-record';
import { BATCH_KINDS, type BatchKind } from './ingest-batch';

export interface BatchKey {
  kind: BatchKind;
  market: Market;
  batchDate: string;
  fileName: string;
}

export const LOGO_BATCH_KIND = 'logos';
/** The manifest's name (data/FORMATS.md, "Logo batch manifest"). */
export const LOGO_MANIFEST_NAME = 'logos.jsonl';
const LOGO_BATCH_PREFIX = `incoming/${LOGO_BATCH_KIND}/`;
const LOGO_LAYOUT = `incoming/${LOGO_BATCH_KIND}/<market>/<YYYY-MM-DD>/<batch-name>/${LOGO_MANIFEST_NAME}, the images beside it`;

export interface LogoBatchKey {
  market: Market;
  batchDate: string;
  batchName: string;
  /** The key of the batch's manifest, whichever object of the batch was parsed. */
  manifestKey: string;
  /** The object is the manifest (which starts the batch), not one of its images. */
  isManifest: boolean;
}

const ENTRY_EXTENSION: Record<BatchKind, string> = {
  'uspto-daily': '.xml',
  tsdr: '.xml',
  'marks-jsonl': '.jsonl',
  tro: '.csv',
};

export function entryExtensionOf(kind: BatchKind): string {
  return ENTRY_EXTENSION[kind];
}

function checkMarketAndDate(market: string, batchDate: string): { error: string } | undefined {
  if (!(MARKETS as readonly string[]).includes(market)) return { error: `unknown market "${market}" (US or CN)` };
  if (!isCalendarDate(batchDate)) return { error: `"${batchDate}" is not a YYYY-MM-DD date` };
  return undefined;
}

export function parseBatchKey(key: string): BatchKey | { error: string } {
  const parts = key.split('/');
  if (parts[0] === 'incoming' && parts[1] === LOGO_BATCH_KIND)
    return { error: `a logo batch is a folder: ${LOGO_LAYOUT}` };
  if (parts.length !== 5 || parts[0] !== 'incoming')
    return { error: `expected incoming/<kind>/<market>/<YYYY-MM-DD>/<file>, got ${key}` };
  const [, kind, market, batchDate, fileName] = parts as [string, string, string, string, string];
  if (!(BATCH_KINDS as readonly string[]).includes(kind))
    return { error: `unknown kind "${kind}" (one of ${[...BATCH_KINDS, LOGO_BATCH_KIND].join(', ')})` };
  const invalid = checkMarketAndDate(market, batchDate);
  if (invalid) return invalid;
  if (!fileName) return { error: 'no file name' };
  return { kind: kind as BatchKind, market: market as Market, batchDate, fileName };
}

/** Whether the key lies under incoming/logos/: a logo batch's manifest or image (or a misplaced object there). */
export function isLogoBatchKey(key: string): boolean {
  return key.startsWith(LOGO_BATCH_PREFIX);
}

export function parseLogoBatchKey(key: string): LogoBatchKey | { error: string } {
  const parts = key.split('/');
  // An empty part is a folder placeholder (`.../<batch-name>/`) or a doubled slash: neither names a file.
  if (parts.length < 6 || !isLogoBatchKey(key) || parts.includes(''))
    return { error: `expected ${LOGO_LAYOUT}, got ${key}` };
  const [, , market, batchDate, batchName, ...inFolder] = parts as [
    string,
    string,
    string,
    string,
    string,
    ...string[],
  ];
  const invalid = checkMarketAndDate(market, batchDate);
  if (invalid) return invalid;
  const folder = parts.slice(0, 5).join('/');
  return {
    market: market as Market,
    batchDate,
    batchName,
    manifestKey: `${folder}/${LOGO_MANIFEST_NAME}`,
    isManifest: inFolder.length === 1 && inFolder[0] === LOGO_MANIFEST_NAME,
  };
}

export function isCoverageSidecar(key: string): boolean {
  return key.endsWith('.coverage.json');
}
