/**
 * A register-scale logo batch (builders/logo-embedder/register-scale-logos.ts) through the real logo ingest, in a
 * process of its own so that its RSS is that of ingest alone. Run as `npm run ingest` runs (a 256 MB heap ceiling):
 *
 *   node --max-old-space-size=256 --import tsx test/bench/logo-scale-ingest.ts \
 *     --marks DIR/marks.jsonl --manifest DIR/logos.jsonl --index-dir DIR/indexes [--batch-date YYYY-MM-DD]
 *
 * 1. The mark records are loaded into the in-memory mark store first (the ingest looks each serial up there, as it
 *    does in DynamoDB; the RSS figures below start after this, so they are ingest's own).
 * 2. The logo batch goes through ingestLogos with buildLogoIngest's embedders and index store (the local default:
 *    the perceptual descriptor and the learned embedder, each into its usearch file in --index-dir; an index
 *    already there is loaded and added to, as a later batch is).
 * 3. Output: one line of JSON (LogoIngestReport): the summary, time, throughput per tenth, peak RSS, CPU seconds and
 *    the size of each index file on disk.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FileSystemBlobStore } from '../../shared/adapters/local/filesystem-blob-store';
import { buildLogoIngest } from '../../shared/composition/logo-search';
import { loadConfig } from '../../shared/config';
import { ingestBlob } from '../../shared/ingest/ingest-blob';
import { ingestLogos } from '../../shared/ingest/ingest-logos';
import { localEnvironment } from '../../local/local-config';
import { createInMemoryDataStores } from '../support/in-memory-data-stores';

export interface LogoIngestReport {
  manifest: string;
  read: number;
  written: number;
  rejected: number;
  complete: boolean;
  failure?: string;
  seconds: number;
  /** Designs per second in each tenth of the batch. */
  tenths: number[];
  baseRssBytes: number;
  peakRssBytes: number;
  /** Where RSS peaked: the JS heap's share and the rest (usearch, onnxruntime, sharp: native memory). */
  atPeak: NodeJS.MemoryUsage;
  cpuSeconds: number;
  files: Record<string, number>;
  firstRejects: string[];
}

async function linesOf(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>)
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  return lines;
}

async function main(): Promise<void> {
  const { values: o } = parseArgs({
    options: {
      marks: { type: 'string' },
      manifest: { type: 'string' },
      'index-dir': { type: 'string' },
      'batch-date': { type: 'string' },
    },
  });
  if (!o.marks || !o.manifest || !o['index-dir']) throw new Error('give --marks, --manifest and --index-dir');
  const config = loadConfig({
    ...localEnvironment({ dynamoDbEndpoint: 'http://127.0.0.1:1', tablePrefix: 'bench', logoIndexDir: o['index-dir'] }),
    LOGO_EMBEDDER: 'learned',
  });
  const stores = createInMemoryDataStores();
  const marks = await ingestBlob(stores, {
    blobs: new FileSystemBlobStore(path.dirname(path.resolve(o.marks))),
    key: path.basename(o.marks),
    kind: 'marks-jsonl',
    market: 'US',
    batchDate: '2026-11-01',
    source: 'register-scale-logos marks',
    holder: 'bench',
  });
  if (!marks.complete) throw new Error(`the marks did not load: ${marks.failure ?? 'incomplete'}`);
  const total = await linesOf(o.manifest);

  global.gc?.();
  const baseRssBytes = process.memoryUsage().rss;
  let peakRssBytes = baseRssBytes;
  let atPeak = process.memoryUsage();
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    if (usage.rss > peakRssBytes) [peakRssBytes, atPeak] = [usage.rss, usage];
  }, 250);
  const tenths: number[] = [];
  let tenthStarted = performance.now();
  let nextTenth = Math.ceil(total / 10);
  const firstRejects: string[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const summary = await ingestLogos(buildLogoIngest(config, stores), {
    blobs: new FileSystemBlobStore(path.dirname(path.resolve(o.manifest))),
    manifestKey: path.basename(o.manifest),
    market: 'US',
    batchDate: o['batch-date'] ?? '2026-11-02',
    source: path.basename(o.manifest),
    holder: `${os.hostname()}:${process.pid}`,
    onReject: (r) => {
      if (firstRejects.length < 5) firstRejects.push(`${r.line}: ${r.error}`);
    },
    onProgress: (c) => {
      const done = c.written + c.rejected;
      if (done >= nextTenth) {
        tenths.push(Math.round(Math.ceil(total / 10) / ((performance.now() - tenthStarted) / 1000)));
        tenthStarted = performance.now();
        nextTenth += Math.ceil(total / 10);
        process.stderr.write(`${done} of ${total} (${Math.round((performance.now() - started) / 1000)} s)\n`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const files = Object.fromEntries(
    readdirSync(o['index-dir']).map((f) => [f, statSync(path.join(o['index-dir']!, f)).size]),
  );
  const report: LogoIngestReport = {
    manifest: o.manifest,
    read: summary.read,
    written: summary.written,
    rejected: summary.rejected,
    complete: summary.complete,
    ...(summary.failure ? { failure: summary.failure } : {}),
    seconds,
    tenths,
    baseRssBytes,
    peakRssBytes,
    atPeak,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    files,
    firstRejects,
  };
  console.log(JSON.stringify(report));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
