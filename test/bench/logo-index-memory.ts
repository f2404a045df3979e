/**
 * What a logo index costs to serve: a fresh process loads the index folder's files as the search does
 * (FolderUsearchIndexStore, the learned embedder's index and the descriptor's), and reports for each the time to load,
 * the RSS and JS heap it added, its files' size on disk, and the bytes its metadata table holds outside the heap.
 * An index folder still holding JSON sidecars (saved before the `.meta` file) is read through the conversion.
 *
 *   node --expose-gc --import tsx test/bench/logo-index-memory.ts --index-dir DIR [--view]
 *
 * `--view`: each index file memory-mapped (UsearchVectorIndex.load with `view`) instead of read: the RSS it adds is
 * then only the metadata and the pages touched so far (none, before a search).
 *
 * Output: one line of JSON (IndexMemoryReport).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FolderUsearchIndexStore } from '../../shared/adapters/local/usearch-index-store';
import { UsearchVectorIndex, legacySidecarOf, metadataFileOf } from '../../shared/adapters/local/usearch-vector-index';
import { PerceptualDescriptorEmbedder } from '../../shared/imaging/perceptual-descriptor';

interface LoadedIndex {
  embedder: string;
  vectors: number;
  loadSeconds: number;
  rssAddedBytes: number;
  heapAddedBytes: number;
  fileBytes: number;
  /** The `.meta` file, or the JSON sidecar of an index saved before it. */
  metadataFileBytes: number;
  /** The metadata table's typed arrays and pool (outside the JS heap; part of rssAddedBytes). */
  metadataTableBytes: number;
}

export interface IndexMemoryReport {
  view: boolean;
  baseRssBytes: number;
  indexes: LoadedIndex[];
  totalRssBytes: number;
}

const settle = () => {
  global.gc?.();
  return process.memoryUsage();
};

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'index-dir': { type: 'string' }, view: { type: 'boolean' } } });
  const folder = values['index-dir'];
  if (!folder) throw new Error('give --index-dir');
  const store = new FolderUsearchIndexStore(folder);
  const names = readdirSync(folder);
  const descriptor = new PerceptualDescriptorEmbedder();
  const embedders = [
    { name: 'logo-net', dimensions: 128 },
    { name: descriptor.name, dimensions: descriptor.dimensions },
  ].filter((e) => names.includes(`US-${e.name}.usearch`));
  const held: unknown[] = [];
  const base = settle();
  const indexes: LoadedIndex[] = [];
  for (const embedder of embedders) {
    const before = settle();
    const started = performance.now();
    const index = values.view
      ? UsearchVectorIndex.load(store.fileOf('US', embedder), { view: true })
      : await store.load('US', embedder);
    const loadSeconds = (performance.now() - started) / 1000;
    held.push(index);
    const after = settle();
    const file = store.fileOf('US', embedder);
    const metadataFile = existsSync(metadataFileOf(file)) ? metadataFileOf(file) : legacySidecarOf(file);
    indexes.push({
      embedder: embedder.name,
      vectors: index instanceof UsearchVectorIndex ? index.size : Number.NaN,
      loadSeconds,
      rssAddedBytes: after.rss - before.rss,
      heapAddedBytes: after.heapUsed - before.heapUsed,
      fileBytes: statSync(file).size,
      metadataFileBytes: statSync(metadataFile).size,
      metadataTableBytes: index instanceof UsearchVectorIndex ? index.metadataBytes : Number.NaN,
    });
  }
  const report: IndexMemoryReport = {
    view: values.view === true,
    baseRssBytes: base.rss,
    indexes,
    totalRssBytes: settle().rss,
  };
  console.log(JSON.stringify(report));
  if (held.length !== embedders.length) throw new Error('an index was not held');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
