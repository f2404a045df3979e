import { FolderUsearchIndexStore } from '../../../shared/adapters/local/usearch-index-store';
import { UsearchVectorIndex } from '../../../shared/adapters/local/usearch-vector-index';
import type { LogoMetadata } from '../../../shared/ports';
import { tempFolderEachTest } from '../../support/temp-folder';

const EMBEDDER = { name: 'test-net', dimensions: 8 };

function item(i: number): { vector: Float32Array; metadata: LogoMetadata } {
  const vector = new Float32Array(EMBEDDER.dimensions);
  vector[i % EMBEDDER.dimensions] = 1;
  vector[(i + 3) % EMBEDDER.dimensions] = 0.5;
  return { vector, metadata: { serial: `S-${i}`, design: `d-${i}`, mark: `mark ${i}`, nice: ['09'], isLive: true } };
}

describe('FolderUsearchIndexStore', () => {
  const folderOf = tempFolderEachTest('index-store-');

  it('maps the file for a search (read-only) and reads it for ingest (added to)', async () => {
    // Arrange
    const store = new FolderUsearchIndexStore(folderOf());
    await store.save('US', EMBEDDER, UsearchVectorIndex.fromVectors(EMBEDDER.dimensions, [item(1), item(2)]));
    // Act
    const searched = await store.load('US', EMBEDDER, { readOnly: true });
    const ingested = await store.load('US', EMBEDDER);
    // Assert
    expect((await searched.query(item(2).vector, { topK: 1 }))[0]!.serial).toBe('S-2');
    await expect(searched.put([item(3)])).rejects.toThrow(/read-only/);
    await ingested.put([item(3)]);
    expect((await ingested.query(item(3).vector, { topK: 1 }))[0]!.serial).toBe('S-3');
  });

  it('keeps a mapped index answering while a newer one is saved in its place', async () => {
    // Arrange
    const store = new FolderUsearchIndexStore(folderOf());
    await store.save('US', EMBEDDER, UsearchVectorIndex.fromVectors(EMBEDDER.dimensions, [item(1), item(2)]));
    const searched = await store.load('US', EMBEDDER, { readOnly: true });
    // Act: the next batch saves a larger index
    const next = await store.load('US', EMBEDDER);
    await next.put([item(4), item(5), item(6)]);
    await store.save('US', EMBEDDER, next);
    // Assert: the old mapping still answers from the old file; a new load sees the new one
    expect((await searched.query(item(1).vector, { topK: 5 })).map((m) => m.serial).sort()).toEqual(['S-1', 'S-2']);
    const reloaded = (await store.load('US', EMBEDDER, { readOnly: true })) as UsearchVectorIndex;
    expect(reloaded.size).toBe(5);
  });
});
