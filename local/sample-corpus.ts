/**
 * The sample corpus `npm start` loads, through the same ingest code as any batch (see data/sample/SOURCE.txt and
 * the SOURCE.txt beside each file for what the records are and where they come from).
 */
import os from 'node:os';
import path from 'node:path';
import { FileSystemBlobStore } from '../shared/adapters/local/filesystem-blob-store';
import type { IngestStores, IngestSummary } from '../shared/ingest/ingest-batch';
import { ingestBlob, type BlobIngest } from '../shared/ingest/ingest-blob';
import { ingestLogos, type LogoIngestDeps } from '../shared/ingest/ingest-logos';
import type { Market } from '../shared/marks/mark-record';

const DATA = path.join(__dirname, '../data');
/** The day the sample corpus was assembled; its data_as_of. */
export const SAMPLE_CORPUS_DATE = '2026-11-22';

type SampleJob = Omit<BlobIngest, 'blobs' | 'holder'>;

export const SAMPLE_CORPUS: readonly SampleJob[] = [
  // The real USPTO daily-XML excerpt (11 records, from a file dated 2018-03-22).
  {
    key: 'uspto/daily-xml-sample/seed.xml',
    kind: 'uspto-daily',
    market: 'US',
    batchDate: '2018-03-22',
    source: 'uspto-daily-sample',
  },
  {
    key: 'sample/us-marks.jsonl',
    kind: 'marks-jsonl',
    market: 'US',
    batchDate: SAMPLE_CORPUS_DATE,
    source: 'sample-us-marks',
  },
  {
    key: 'sample/cn-marks.jsonl',
    kind: 'marks-jsonl',
    market: 'CN',
    batchDate: SAMPLE_CORPUS_DATE,
    source: 'sample-cn-marks',
    coverageKey: 'sample/cn-coverage.json',
  },
  {
    key: 'tro/tro_brands_sample.csv',
    kind: 'tro',
    market: 'US',
    batchDate: SAMPLE_CORPUS_DATE,
    source: 'sample-tro-list',
  },
];

/**
 * The sample logos (data/sample/logos), for the US sample marks. Their images are prepared at once; the mark
 * lookups and the index writes wait for `usMarksReady` when the US marks are still loading.
 */
export async function loadSampleLogos(deps: LogoIngestDeps, usMarksReady?: Promise<unknown>): Promise<IngestSummary> {
  const summary = await ingestLogos(deps, {
    blobs: new FileSystemBlobStore(DATA),
    manifestKey: 'sample/logos/logos.jsonl',
    market: 'US',
    batchDate: SAMPLE_CORPUS_DATE,
    source: 'sample-logos',
    holder: `${os.hostname()}:${process.pid}`,
    ...(usMarksReady ? { marksReady: usMarksReady } : {}),
  });
  if (!summary.complete) throw new Error(`sample logos did not complete: ${summary.failure}`);
  return summary;
}

export interface SampleCorpusLoad {
  /** Settles once every marks batch of the market is in (rejects if one fails). */
  marksIn(market: Market): Promise<void>;
  /** Every batch's summary, lane by lane (each lane in SAMPLE_CORPUS order). */
  done: Promise<IngestSummary[]>;
}

/** Batches that share a lock (same market and kind) load in order; the others load alongside them. */
export function startSampleCorpus(stores: IngestStores): SampleCorpusLoad {
  const blobs = new FileSystemBlobStore(DATA);
  const lanes = new Map<string, SampleJob[]>();
  for (const job of SAMPLE_CORPUS) {
    const lane = laneOf(job);
    lanes.set(lane, [...(lanes.get(lane) ?? []), job]);
  }
  const loading = new Map(
    [...lanes].map(([lane, jobs]) => [
      lane,
      (async () => {
        const summaries: IngestSummary[] = [];
        for (const job of jobs) {
          const summary = await ingestBlob(stores, { ...job, blobs, holder: `${os.hostname()}:${process.pid}` });
          if (!summary.complete) throw new Error(`sample batch ${job.key} did not complete: ${summary.failure}`);
          summaries.push(summary);
        }
        return summaries;
      })(),
    ]),
  );
  const done = Promise.all(loading.values()).then((results) => results.flat());
  return {
    marksIn: async (market) => {
      await loading.get(laneOf({ market, kind: 'marks-jsonl' }));
    },
    done,
  };
}

export async function loadSampleCorpus(stores: IngestStores): Promise<IngestSummary[]> {
  return startSampleCorpus(stores).done;
}

function laneOf(job: Pick<SampleJob, 'market' | 'kind'>): string {
  return `${job.market}#${job.kind === 'tro' ? 'tro' : 'marks'}`;
}
