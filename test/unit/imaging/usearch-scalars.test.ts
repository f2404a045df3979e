/**
 * Logo indexes kept as smaller scalars (usearch-vector-index.ts, "Scalars"): the designs and their neighbours
 * survive, and the scalar is kept through save and load.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { UsearchVectorIndex } from '../../../shared/adapters/local/usearch-vector-index';
import { seededUnitVector } from '../../support/seeded-vectors';
import { tempFolderEachTest } from '../../support/temp-folder';

const DIMENSIONS = 548;

const unitVector = (seed: number): Float32Array => seededUnitVector(seed, DIMENSIONS);

const metadataOf = (i: number) => ({ serial: `S-${i}`, design: `d-${i}`, mark: `m ${i}`, nice: ['09'], isLive: true });

describe('smaller logo indexes', () => {
  const folderOf = tempFolderEachTest('usearch-scalars-');

  it('keeps an i8 index as i8 through save and load, a quarter of the f32 file, each design its own nearest', async () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ vector: unitVector(i + 1), metadata: metadataOf(i) }));
    UsearchVectorIndex.fromVectors(DIMENSIONS, items).save(path.join(folderOf(), 'f32.usearch'));
    UsearchVectorIndex.fromVectors(DIMENSIONS, items, 'i8').save(path.join(folderOf(), 'i8.usearch'));
    const loaded = UsearchVectorIndex.load(path.join(folderOf(), 'i8.usearch'), { view: true });
    expect(loaded.scalar).toBe('i8');
    const size = (name: string) => statSync(path.join(folderOf(), name)).size;
    expect(size('i8.usearch')).toBeLessThan(size('f32.usearch') / 2);
    for (const { vector, metadata } of items.slice(0, 50)) {
      const [first] = await loaded.query(vector, { topK: 1 });
      expect(first).toMatchObject({ serial: metadata.serial, design: metadata.design });
      expect(first!.score).toBeGreaterThan(0.97);
    }
  });
});
