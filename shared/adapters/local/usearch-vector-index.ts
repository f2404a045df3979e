/**
 * VectorIndex over a usearch HNSW index (cosine metric, f32), the local default and the in-Lambda degraded index.
 *
 * Score: usearch's cosine metric returns the distance d = 1 - cos(a, b), in [0, 2]. The score of a match is
 *   score = clamp(1 - d, 0, 1) = max(0, cos(a, b))
 * so 1 is the same image and anything pointing away (cos <= 0) is 0. This is the one mapping of this index.
 *
 * Filters: usearch 2.26's JavaScript binding has no predicate (filtered) search, so `query` over-fetches: it asks for
 * topK x 4 candidates (at least 64), drops those failing `nice` / `liveOnly`, and, when fewer than topK survive and
 * the index holds more, doubles the fetch until it has topK or has fetched the whole index. A very selective filter
 * therefore costs more candidates, never a missed match that HNSW itself found.
 *
 * Designs: a mark keeps one vector per design (serial and design in the metadata). `query` counts marks, not vectors:
 * the fetched designs collapse to the best of each mark (bestDesignPerMark), and the over-fetch above goes on until
 * topK marks survive.
 *
 * Keys: usearch keys are integers; each put gives the (serial, design) a fresh key (the old key of that design is
 * removed), so filing a design again never leaves a stale neighbour behind, and a mark's other designs stay.
 * Metadata lives in memory beside the index, in a LogoMetadataTable: columns of typed arrays off the JS heap, so a
 * million designs take tens of megabytes of buffers instead of a JS object each (docs/logos-at-register-scale.md).
 *
 * Scalars: vectors are kept as f32, or as `i8` or `f16` where an index is made so (the metadata file records which): usearch
 * quantises each vector as it is added and each query as it is asked (i8: the vector scaled to unit length, each
 * value times 127, cut toward 0; a byte a dimension, a quarter of f32), so a 548-float descriptor takes 548 bytes.
 * The score is the same mapping of the cosine usearch computes on what it keeps. The stores still make every index
 * f32: what i8 costs the descriptor's recall at register scale is not measured yet (docs/logos-at-register-scale.md).
 *
 * Files: `save(path)` writes the usearch index to `path` and the metadata to `path + '.meta'` (METADATA_FORMAT: a
 * JSON header with the dimensions, scalar and next key, then the table's columns); `load(path)` reads both.
 * An index saved before (metadata in a JSON sidecar, `path + '.json'`, 'usearch-logo-index/2') still loads when it
 * has no `.meta` file: its entries are read once into a table, and the next save writes `.meta` and deletes the
 * `.json`. `load(path, { view: true })` maps the index file into memory instead of reading it (usearch's view): only
 * the pages a search touches are resident, and the index cannot be added to (`put` throws); for a process that only
 * searches a large index. The metadata is read into memory either way.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Index, MetricKind, ScalarKind } from 'usearch';
import type { LogoMetadata, VectorIndex, VectorMatch, VectorQuery } from '../../ports';
import { bestDesignPerMark } from '../../imaging/best-design-per-mark';
import { LogoMetadataTable } from './logo-metadata-table';

const CONNECTIVITY = 16;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 128;
const OVERFETCH = 4;
const MIN_FETCH = 64;

/** The JSON sidecar of indexes saved before the metadata table: read, never written. */
const LEGACY_FORMAT = 'usearch-logo-index/2';

/** The metadata file beside an index file, and the JSON sidecar of older indexes. */
export const metadataFileOf = (path: string): string => `${path}.meta`;
export const legacySidecarOf = (path: string): string => `${path}.json`;

/** How an index keeps its vectors. */
export type VectorScalar = 'f32' | 'f16' | 'i8';

const SCALAR_KINDS: Record<VectorScalar, ScalarKind> = { f32: ScalarKind.F32, f16: ScalarKind.F16, i8: ScalarKind.I8 };

interface LegacySidecar {
  format: typeof LEGACY_FORMAT;
  dimensions: number;
  /** Absent in indexes written before scalars were chosen: f32. */
  scalar?: VectorScalar;
  nextKey: number;
  entries: { key: number; metadata: LogoMetadata }[];
}

export function scoreOfCosineDistance(distance: number): number {
  return Math.max(0, Math.min(1, 1 - distance));
}

export class UsearchVectorIndex implements VectorIndex {
  private readonly index: Index;
  private metadata = LogoMetadataTable.empty();
  private nextKey = 1;
  private viewOnly = false;

  constructor(
    readonly dimensions: number,
    readonly scalar: VectorScalar = 'f32',
  ) {
    if (!Number.isInteger(dimensions) || dimensions <= 0)
      throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
    this.index = new Index({
      dimensions,
      metric: MetricKind.Cos,
      quantization: SCALAR_KINDS[scalar],
      connectivity: CONNECTIVITY,
      expansion_add: EXPANSION_ADD,
      expansion_search: EXPANSION_SEARCH,
      multi: false,
    });
  }

  static fromVectors(
    dimensions: number,
    items: readonly { vector: Float32Array; metadata: LogoMetadata }[],
    scalar: VectorScalar = 'f32',
  ): UsearchVectorIndex {
    const index = new UsearchVectorIndex(dimensions, scalar);
    index.putNow(items);
    return index;
  }

  static load(path: string, options: { view?: boolean } = {}): UsearchVectorIndex {
    const { index, table, nextKey } = existsSync(metadataFileOf(path)) ? readMetadata(path) : readLegacySidecar(path);
    if (options.view) {
      index.index.view(path);
      index.viewOnly = true;
    } else index.index.load(path);
    index.metadata = table;
    index.nextKey = nextKey;
    if (index.index.size() !== table.size)
      throw new Error(`${path} holds ${index.index.size()} vectors but its metadata ${table.size} designs`);
    return index;
  }

  /** Vectors held: one per design of each mark. */
  get size(): number {
    return this.metadata.size;
  }

  /** Bytes the metadata table holds outside the JS heap. */
  get metadataBytes(): number {
    return this.metadata.byteLength;
  }

  save(path: string): void {
    this.index.save(path);
    this.metadata.writeTo(metadataFileOf(path), {
      dimensions: this.dimensions,
      ...(this.scalar === 'f32' ? {} : { scalar: this.scalar }),
      nextKey: this.nextKey,
    });
    rmSync(legacySidecarOf(path), { force: true });
  }

  async put(items: readonly { vector: Float32Array; metadata: LogoMetadata }[]): Promise<void> {
    this.putNow(items);
  }

  async query(vector: Float32Array, query: VectorQuery): Promise<VectorMatch[]> {
    query.signal?.throwIfAborted();
    this.checkDimensions(vector);
    const total = this.metadata.size;
    if (query.topK <= 0 || total === 0) return [];
    const table = this.metadata;
    // Filtered on the columns: only the designs that pass are decoded into objects.
    const accepts = (row: number) =>
      row >= 0 &&
      (query.nice === undefined || table.hasNiceAt(row, query.nice)) &&
      (!query.liveOnly || table.isLiveAt(row));
    let fetch = Math.min(total, Math.max(MIN_FETCH, query.topK * OVERFETCH));
    for (;;) {
      const found = this.index.search(vector, fetch, 1);
      const designs: VectorMatch[] = [];
      for (let i = 0; i < found.keys.length; i++) {
        const row = table.rowOf(Number(found.keys[i]));
        if (accepts(row)) designs.push({ ...table.metadataAt(row), score: scoreOfCosineDistance(found.distances[i]!) });
      }
      const marks = bestDesignPerMark(designs);
      if (marks.length >= query.topK || fetch >= total) return marks.slice(0, query.topK);
      fetch = Math.min(total, fetch * 2);
    }
  }

  private putNow(items: readonly { vector: Float32Array; metadata: LogoMetadata }[]): void {
    if (this.viewOnly) throw new Error('this index is a read-only view of its file; load it to add to it');
    // The last item of a (serial, design) wins; all new vectors go to usearch in one batch, on one thread: added on
    // many threads at once, the graph now and then left a vector that no search reached (a registered logo not
    // found by its own file, about one run in two over the 676 test designs of eval:logos).
    const latest = new Map<string, { vector: Float32Array; metadata: LogoMetadata }>();
    for (const item of items) {
      this.checkDimensions(item.vector);
      latest.set(designKey(item.metadata), item);
    }
    if (latest.size === 0) return;
    const keys = new BigUint64Array(latest.size);
    const vectors: Float32Array[] = [];
    for (const { vector, metadata } of latest.values()) {
      const previous = this.metadata.keyOf(metadata.serial, metadata.design);
      if (previous !== undefined) {
        this.index.remove(BigInt(previous));
        this.metadata.remove(previous);
      }
      const key = this.nextKey++;
      keys[vectors.length] = BigInt(key);
      vectors.push(vector);
      this.metadata.append(key, metadata);
    }
    this.index.add(keys, vectors.length === 1 ? vectors[0]! : vectors, 1);
  }

  private checkDimensions(vector: Float32Array): void {
    if (vector.length !== this.dimensions)
      throw new RangeError(`expected a vector of ${this.dimensions} dimensions, got ${vector.length}`);
  }
}

function designKey(metadata: Pick<LogoMetadata, 'serial' | 'design'>): string {
  return `${metadata.serial}\u0000${metadata.design}`;
}

function readMetadata(path: string): { index: UsearchVectorIndex; table: LogoMetadataTable; nextKey: number } {
  const { table, header } = LogoMetadataTable.readFrom(metadataFileOf(path));
  const { dimensions, scalar, nextKey } = header as { dimensions: number; scalar?: VectorScalar; nextKey: number };
  return { index: new UsearchVectorIndex(dimensions, scalar ?? 'f32'), table, nextKey };
}

/** An index saved with a JSON sidecar: its entries, in key order, into a table. */
function readLegacySidecar(path: string): { index: UsearchVectorIndex; table: LogoMetadataTable; nextKey: number } {
  const sidecar = JSON.parse(readFileSync(legacySidecarOf(path), 'utf8')) as LegacySidecar;
  if (sidecar.format !== LEGACY_FORMAT)
    throw new Error(`${legacySidecarOf(path)} is not a ${LEGACY_FORMAT} sidecar (an older index is rebuilt by ingest)`);
  const table = LogoMetadataTable.empty(sidecar.entries.length);
  for (const { key, metadata } of sidecar.entries.sort((a, b) => a.key - b.key)) table.append(key, metadata);
  return {
    index: new UsearchVectorIndex(sidecar.dimensions, sidecar.scalar ?? 'f32'),
    table,
    nextKey: sidecar.nextKey,
  };
}
