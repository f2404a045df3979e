/**
 * The measured side of the ingest benchmark (ingest.bench.ts), run as its own process so that its RSS is that of a
 * process doing ingest alone (as `npm run ingest` or the ingest function would), not of the benchmark runner that
 * also loaded every other benchmark and generated the file.
 *
 * Input: the file's folder and key as arguments, the tables and DynamoDB endpoint in the environment (as for the
 * ingest CLI). Output: one line of JSON on stdout (IngestRunReport).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { FileSystemBlobStore } from '../../shared/adapters/local/filesystem-blob-store';
import { buildDataStores } from '../../shared/composition/data-stores';
import { loadConfig } from '../../shared/config';
import { ingestBlob } from '../../shared/ingest/ingest-blob';
import type { IngestSummary } from '../../shared/ingest/ingest-batch';

export interface IngestRunReport {
  summary: IngestSummary;
  seconds: number;
  /** Records per second in each tenth of the file. */
  tenths: number[];
  peakRssBytes: number;
  /** RSS once the code was loaded, before the ingest began. */
  baseRssBytes: number;
  tenthPeakRssBytes: number[];
  /** process.memoryUsage() when RSS peaked: how much of it is the JS heap and how much buffers outside it. */
  atPeak: NodeJS.MemoryUsage;
  cpuSeconds: number;
  sdk: { calls: number; markWrites: number; keyWrites: number; reads: number };
}

async function main(): Promise<void> {
  const [dir, key, recordsText] = process.argv.slice(2);
  if (!dir || !key || !recordsText) throw new Error('usage: ingest-process <dir> <key> <records>');
  const records = Number(recordsText);
  const config = loadConfig(process.env);
  const { raw, doc } = createDynamoDbClients({ region: config.region, endpoint: config.dynamoDbEndpoint });
  const sdk = { calls: 0, markWrites: 0, keyWrites: 0, reads: 0 };
  const { marks: marksTable, 'mark-keys': keysTable } = config.tables;
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      sdk.calls++;
      const requests = (args.input as { RequestItems?: Record<string, unknown[]> }).RequestItems;
      if (context.commandName === 'BatchGetItemCommand' && requests) {
        for (const table of [marksTable, keysTable])
          sdk.reads += (requests[table] as { Keys?: unknown[] } | undefined)?.Keys?.length ?? 0;
      }
      if (context.commandName === 'BatchWriteItemCommand' && requests) {
        sdk.markWrites += requests[marksTable]?.length ?? 0;
        sdk.keyWrites += requests[keysTable]?.length ?? 0;
      }
      return next(args);
    },
    { step: 'initialize', name: 'countIngestCalls' },
  );
  const stores = buildDataStores(config, doc);

  const baseRssBytes = process.memoryUsage().rss;
  let peakRssBytes = baseRssBytes;
  let atPeak = process.memoryUsage();
  let tenthPeak = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    if (usage.rss > peakRssBytes) [peakRssBytes, atPeak] = [usage.rss, usage];
    tenthPeak = Math.max(tenthPeak, usage.rss);
  }, 250);
  const tenths: number[] = [];
  const tenthPeakRssBytes: number[] = [];
  let tenthStarted = performance.now();
  let nextTenth = records / 10;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const summary = await ingestBlob(stores, {
    blobs: new FileSystemBlobStore(dir),
    key,
    kind: 'uspto-daily',
    market: 'US',
    batchDate: '2099-12-31',
    source: 'bench',
    holder: 'bench',
    onProgress: (counts) => {
      // Records stored (the parser runs a chunk ahead of the writes).
      const done = counts.written + counts.unchanged + counts.stale + counts.rejected;
      while (done >= nextTenth && tenths.length < 10) {
        const now = performance.now();
        tenths.push(records / 10 / ((now - tenthStarted) / 1000));
        tenthPeakRssBytes.push(Math.max(tenthPeak, process.memoryUsage().rss));
        tenthPeak = 0;
        tenthStarted = now;
        nextTenth += records / 10;
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpuBefore);
  raw.destroy();
  const report: IngestRunReport = {
    summary,
    seconds,
    tenths,
    peakRssBytes,
    baseRssBytes,
    tenthPeakRssBytes,
    atPeak,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    sdk,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
