/**
 * The sample corpus `npm start` loads, through the same ingest code as any batch (see data/sample/SOURCE.txt and
 * the SOURCE.txt beside each file for what the records are and where they come from).
 */
import os from 'node:os';
import path from 'node:path';
import { FileSystemBlobStore } from '../../shared/adapters/local/filesystem-blob-store';
import type { IngestStores, IngestSummary } from '../../shared/ingest/ingest-batch';
import { ingestBlob, type BlobIngest } from '../../shared/ingest/ingest-blob';
import { ingestLogos, type LogoIngestDeps } from '../../shared/ingest/ingest-logos';

const DATA = path.join(__dirname, '../../data');
/** The day the sample corpus was assembled; its data_as_of. */
export const SAMPLE_CORPUS_DATE = '2026-11-22';

type SampleJob = Omit<BlobIngest, 'blobs' | 'holder'>;

export const SAMPLE_CORPUS: readonly SampleJob[] = [
  // The real USPTO daily-XML excerpt (11 records, from a file dated 2018-03-22).
  { key: 'uspto/daily-xml-sample/seed.xml', kind: 'uspto-daily', market: 'US', batchDate: '2018-03-22', source: 'uspto-daily-sample' },
  { key: 'sample/us-marks.jsonl', kind: 'marks-jsonl', market: 'US', batchDate: SAMPLE_CORPUS_DATE, source: 'sample-us-marks' },
  { key: 'sample/cn-marks.jsonl', kind: 'marks-jsonl', market: 'CN', batchDate: SAMPLE_CORPUS_DATE, source: 'sample-cn-marks', coverageKey: 'sample/cn-coverage.json' },
  { key: 'tro/tro_brands_sample.csv', kind: 'tro', market: 'US', batchDate: SAMPLE_CORPUS_DATE, source: 'sample-tro-list' },
];

/** The sample logos (data/sample/logos), for the US sample marks: loaded once those marks are in. */
export async function loadSampleLogos(deps: LogoIngestDeps): Promise<IngestSummary> {
  const summary = await ingestLogos(
    deps,
    { blobs: new FileSystemBlobStore(DATA), manifestKey: 'sample/logos/logos.jsonl', market: 'US', batchDate: SAMPLE_CORPUS_DATE, source: 'sample-logos', holder: `${os.hostname()}:${process.pid}` },
  );
  if (!summary.complete) throw new Error(`sample logos did not complete: ${summary.failure}`);
  return summary;
}

/** Batches that share a lock (same market and kind) load in order; the others load alongside them. */
export async function loadSampleCorpus(stores: IngestStores): Promise<IngestSummary[]> {
  const blobs = new FileSystemBlobStore(DATA);
  const lanes = new Map<string, SampleJob[]>();
  for (const job of SAMPLE_CORPUS) {
    const lane = `${job.market}#${job.kind === 'tro' ? 'tro' : 'marks'}`;
    lanes.set(lane, [...(lanes.get(lane) ?? []), job]);
  }
  const results = await Promise.all(
    [...lanes.values()].map(async (jobs) => {
      const summaries: IngestSummary[] = [];
      for (const job of jobs) {
        const summary = await ingestBlob(stores, { ...job, blobs, holder: `${os.hostname()}:${process.pid}` });
        if (!summary.complete) throw new Error(`sample batch ${job.key} did not complete: ${summary.failure}`);
        summaries.push(summary);
      }
      return summaries;
    }),
  );
  return results.flat();
}
