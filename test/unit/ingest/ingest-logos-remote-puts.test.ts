import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileSystemBlobStore } from '../../../shared/adapters/local/filesystem-blob-store';
import { FolderUsearchIndexStore } from '../../../shared/adapters/local/usearch-index-store';
import type { UsearchVectorIndex } from '../../../shared/adapters/local/usearch-vector-index';
import { INGEST_SVG_DEADLINE_MS, normalizeImage } from '../../../shared/imaging/normalize-image';
import { PerceptualDescriptorEmbedder } from '../../../shared/imaging/perceptual-descriptor';
import { ingestBlob } from '../../../shared/ingest/ingest-blob';
import { ingestLogos, type LogoIngestDeps } from '../../../shared/ingest/ingest-logos';
import type { Embedder, LogoMetadata, VectorIndex } from '../../../shared/ports';
import { createInMemoryDataStores } from '../../support/in-memory-data-stores';
import { rectanglePng } from '../imaging/test-images';

/**
 * S3 Vectors has no local form: this index records what each put carried, and can be told to fail one put.
 */
class RecordingRemoteIndex implements VectorIndex {
  readonly puts: string[][] = [];
  constructor(private readonly failOnPut?: number) {}
  async put(items: readonly { vector: Float32Array; metadata: LogoMetadata }[]): Promise<void> {
    if (this.puts.length + 1 === this.failOnPut) throw new Error('TooManyRequestsException');
    this.puts.push(items.map((item) => item.metadata.serial));
  }
  async query(): Promise<never[]> {
    return [];
  }
}

const LINES = 7;

describe('logo ingest into a remote index', () => {
  let folder: string;
  beforeEach(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'logo-remote-puts-'));
    const marks: string[] = [];
    const logos: string[] = [];
    for (let i = 0; i < LINES; i++) {
      const png = await rectanglePng({
        width: 120,
        height: 80,
        background: { r: 255, g: 255, b: 255, alpha: 1 },
        rect: { left: 5 + i * 12, top: 10, width: 20 + i * 3, height: 30, colour: i % 2 ? '#203080' : '#a02010' },
      });
      writeFileSync(path.join(folder, `logo-${i}.png`), png);
      marks.push(
        JSON.stringify({ serial: `S-${i}`, mark: `Mark ${i}`, nice: [9], is_live: true, drawing_kind: 'both' }),
      );
      logos.push(
        JSON.stringify({
          serial: `S-${i}`,
          mark: `Mark ${i}`,
          file: `logo-${i}.png`,
          nice: [9],
          is_live: true,
          source: 'test',
        }),
      );
    }
    writeFileSync(path.join(folder, 'marks.jsonl'), marks.join('\n'));
    writeFileSync(path.join(folder, 'logos.jsonl'), logos.join('\n'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  async function ingestWith(remote: RecordingRemoteIndex) {
    const stores = createInMemoryDataStores();
    const blobs = new FileSystemBlobStore(folder);
    const request = { blobs, market: 'US' as const, source: 'test', holder: 'test' };
    await ingestBlob(stores, { ...request, key: 'marks.jsonl', kind: 'marks-jsonl', batchDate: '2026-11-01' });
    const descriptor = new PerceptualDescriptorEmbedder();
    // A second embedder whose index is remote (as the learned embedder's is in AWS).
    const remoteEmbedder: Embedder = {
      name: 'remote',
      dimensions: descriptor.dimensions,
      embed: (i) => descriptor.embed(i),
    };
    const indexes = new FolderUsearchIndexStore(path.join(folder, 'indexes'));
    const deps: LogoIngestDeps = {
      marks: stores.marks,
      batches: stores.batches,
      indexes,
      embedders: [{ embedder: descriptor }, { embedder: remoteEmbedder, remoteIndex: () => remote }],
      normalize: (bytes) => normalizeImage(bytes, { svgDeadlineMs: INGEST_SVG_DEADLINE_MS }),
      now: () => new Date(),
      remotePutBatch: 3,
    };
    const summary = await ingestLogos(deps, { ...request, manifestKey: 'logos.jsonl', batchDate: '2026-11-02' });
    return { summary, local: await indexes.load('US', descriptor) };
  }

  it('sends the remote index its vectors a batch at a time, in manifest order, and keeps the in-process index whole', async () => {
    // Arrange
    const remote = new RecordingRemoteIndex();
    // Act
    const { summary, local } = await ingestWith(remote);
    // Assert
    expect(remote.puts).toEqual([['S-0', 'S-1', 'S-2'], ['S-3', 'S-4', 'S-5'], ['S-6']]);
    expect(summary).toEqual(expect.objectContaining({ complete: true, read: LINES, written: LINES, rejected: 0 }));
    expect((local as UsearchVectorIndex).size).toBe(LINES);
  });

  it('counts as written only the lines whose remote put went through, and leaves the batch incomplete', async () => {
    // Arrange: the second put is refused
    const remote = new RecordingRemoteIndex(2);
    // Act
    const { summary } = await ingestWith(remote);
    // Assert
    expect(remote.puts).toEqual([['S-0', 'S-1', 'S-2']]);
    expect(summary.complete).toBe(false);
    expect(summary.written).toBe(3);
    expect(summary.failure).toMatch(/TooManyRequests/);
  });
});
