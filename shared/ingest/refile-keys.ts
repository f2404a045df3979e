/**
 * Files every stored mark of a market under the keys lookupKeysOfRecord gives now: the step that goes with a change
 * of lookup keys (a new kind of key, or a rule for who is filed where), run once after the code that reads the new
 * keys is deployed. Until then screening reads keys the store does not hold yet, and finds less.
 *
 * It is an ingest of the store's own records: under the market's marks lock (no batch runs beside it), the filters
 * unsealed, each mark whose stored keys differ written through the batch writer (which leaves the old keys and joins
 * the new, holding joins back as a batch does), then the filters sealed again (the key filter rebuilt from the store:
 * screening skips a key it does not hold). Marks already filed as they should be cost a read of the scan and nothing
 * else, so a second run, or a run after an interrupted one, finishes the work and changes nothing more.
 */
import { lookupKeysOfRecord, sameKeys } from '../marks/lookup-keys';
import type { Market, MarkRecord } from '../marks/mark-record';
import { LOCK_SECONDS, openFilters, sealFilters, type IngestStores } from './ingest-batch';

export interface RefileProgress {
  /** Stored marks read so far. */
  read: number;
  /** Of those, marks filed under the keys they have now. */
  refiled: number;
}

export interface RefileSummary extends RefileProgress {
  seconds: number;
}

/**
 * Marks per write. A mark refiled leaves keys as well as joining them, and a key left is written at once with the
 * whole chunk's changes: the crowded keys many short marks leave are rewritten once a chunk. At 4,000 a store of
 * 300,000 marks was refiled at about 130 marks a second on DynamoDB Local; a larger chunk rewrites them less often.
 */
const CHUNK = 50_000;

export async function refileKeys(
  stores: IngestStores,
  request: { market: Market; holder: string; onProgress?: (progress: RefileProgress) => void },
): Promise<RefileSummary> {
  const started = Date.now();
  const { market, holder } = request;
  const progress: RefileProgress = { read: 0, refiled: 0 };
  await stores.batches.acquireLock(market, 'marks', holder, stores.now(), LOCK_SECONDS);
  try {
    const filters = await openFilters(stores, market, false);
    const writer = stores.marks.openBatchWriter(filters.absent ? { absent: filters.absent } : {});
    let lockRenewedAt = Date.now();
    let chunk: MarkRecord[] = [];
    const flush = async () => {
      if (chunk.length === 0) return;
      const result = await writer.write(chunk);
      chunk = [];
      progress.refiled += result.written;
      for (const key of result.keys) filters.keys?.add(key);
      request.onProgress?.({ ...progress });
      if (Date.now() - lockRenewedAt > 60_000) {
        await stores.batches.acquireLock(market, 'marks', holder, stores.now(), LOCK_SECONDS);
        lockRenewedAt = Date.now();
      }
    };
    for await (const { record, lookupKeys } of stores.marks.storedMarks(market)) {
      progress.read++;
      if (sameKeys(lookupKeys, lookupKeysOfRecord(record))) continue;
      chunk.push(record);
      if (chunk.length >= CHUNK) await flush();
    }
    await flush();
    await writer.finish();
    await sealFilters(stores, market, filters);
  } finally {
    await stores.batches.releaseLock(market, 'marks', holder).catch(() => undefined);
  }
  return { ...progress, seconds: (Date.now() - started) / 1000 };
}
