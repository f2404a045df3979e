import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsearchVectorIndex, scoreOfCosineDistance } from '../../../shared/adapters/local/usearch-vector-index';
import type { LogoMetadata } from '../../../shared/ports';
import { seededUnitVector } from '../../support/seeded-vectors';

const DIMENSIONS = 32;

const unitVector = (seed: number): Float32Array => seededUnitVector(seed, DIMENSIONS);

function metadataOf(i: number, overrides: Partial<LogoMetadata> = {}): LogoMetadata {
  return {
    serial: `S-${i}`,
    design: `logo-${i}.png`,
    mark: `mark ${i}`,
    nice: i % 2 === 0 ? ['09'] : ['25'],
    isLive: i % 3 !== 0,
    ...overrides,
  };
}

function exactNearest(vectors: Float32Array[], query: Float32Array): number {
  const scores = vectors.map((v) => v.reduce((sum, x, i) => sum + x * query[i]!, 0));
  return scores.indexOf(Math.max(...scores));
}

describe('UsearchVectorIndex', () => {
  const vectors = Array.from({ length: 200 }, (_, i) => unitVector(i + 1));
  const items = vectors.map((vector, i) => ({ vector, metadata: metadataOf(i) }));

  it('finds the exact nearest vector, with score 1 for the vector itself', async () => {
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, items);

    const self = await index.query(vectors[17]!, { topK: 3 });
    const near = unitVector(999);
    const nearest = await index.query(near, { topK: 1 });

    expect(self[0]).toMatchObject({ serial: 'S-17', mark: 'mark 17' });
    expect(self[0]!.score).toBeCloseTo(1, 5);
    expect(self[1]!.score).toBeLessThan(self[0]!.score);
    expect(nearest[0]!.serial).toBe(`S-${exactNearest(vectors, near)}`);
  });

  it('finds every stored vector by itself, and builds the same graph from the same batch', async () => {
    // 300 clusters of 8 near-duplicates (designs of one logo and its variants): where a graph built on many threads
    // at once can leave a vector no search reaches.
    const clustered = Array.from({ length: 2400 }, (_, i) => {
      const centre = unitVector(Math.floor(i / 8) + 1);
      const noise = unitVector(10_000 + i);
      const v = centre.map((x, d) => x + 0.05 * noise[d]!);
      const norm = Math.hypot(...v);
      return { vector: v.map((x) => x / norm), metadata: metadataOf(i) };
    });
    const answers = async () => {
      const index = UsearchVectorIndex.fromVectors(DIMENSIONS, clustered);
      return Promise.all(clustered.map(async (item) => (await index.query(item.vector, { topK: 1 }))[0]!.serial));
    };
    const [first, second] = [await answers(), await answers()];

    expect(first.filter((serial, i) => serial !== `S-${i}`)).toEqual([]);
    expect(second).toEqual(first);
  });

  it('applies the nice and live filters, still returning topK', async () => {
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, items);

    const matches = await index.query(vectors[4]!, { topK: 10, nice: '25', liveOnly: true });

    expect(matches).toHaveLength(10);
    expect(matches.every((m) => m.nice.includes('25') && m.isLive)).toBe(true);
    expect(matches.map((m) => m.serial)).not.toContain('S-4');
  });

  it('over-fetches until a rare filter is satisfied', async () => {
    const rare = items.map((item, i) => (i === 150 ? { ...item, metadata: metadataOf(i, { nice: ['42'] }) } : item));
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, rare);

    const matches = await index.query(vectors[3]!, { topK: 5, nice: '42' });

    expect(matches.map((m) => m.serial)).toEqual(['S-150']);
  });

  it('replaces a vector by serial', async () => {
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, items);
    const replacement = unitVector(5000);

    await index.put([{ vector: replacement, metadata: metadataOf(7, { mark: 'renamed' }) }]);
    const byNew = await index.query(replacement, { topK: 1 });
    const byOld = await index.query(vectors[7]!, { topK: 200 });

    expect(index.size).toBe(200);
    expect(byNew[0]).toMatchObject({ serial: 'S-7', mark: 'renamed' });
    expect(byNew[0]!.score).toBeCloseTo(1, 5);
    expect(byOld.filter((m) => m.serial === 'S-7')).toHaveLength(1);
    expect(byOld[0]!.serial).not.toBe('S-7');
  });

  it('keeps every design of a mark and answers with its best design, one row per mark', async () => {
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, items);
    const designs = [unitVector(6001), unitVector(6002), unitVector(6003)];
    await index.put(designs.map((vector, d) => ({ vector, metadata: metadataOf(500, { design: `design-${d}.svg` }) })));

    expect(index.size).toBe(203);
    for (const [d, vector] of designs.entries()) {
      const found = await index.query(vector, { topK: 10 });
      expect(found[0]).toMatchObject({ serial: 'S-500', design: `design-${d}.svg` });
      expect(found[0]!.score).toBeCloseTo(1, 5);
      expect(found.filter((m) => m.serial === 'S-500')).toHaveLength(1);
      expect(found).toHaveLength(10);
    }
    // Filing one design again replaces that design only.
    await index.put([{ vector: unitVector(6004), metadata: metadataOf(500, { design: 'design-1.svg' }) }]);
    expect(index.size).toBe(203);
    expect((await index.query(designs[0]!, { topK: 1 }))[0]).toMatchObject({ serial: 'S-500', design: 'design-0.svg' });
    expect((await index.query(unitVector(6004), { topK: 1 }))[0]).toMatchObject({
      serial: 'S-500',
      design: 'design-1.svg',
    });
  });

  it('round-trips through save and load, metadata included', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'usearch-index-'));
    try {
      const index = UsearchVectorIndex.fromVectors(DIMENSIONS, items);
      await index.put([{ vector: unitVector(7000), metadata: metadataOf(3, { mark: 'replaced' }) }]);
      const file = path.join(dir, 'us.usearch');

      index.save(file);
      const loaded = UsearchVectorIndex.load(file);

      const query = unitVector(4242);
      expect(loaded.size).toBe(200);
      expect(await loaded.query(query, { topK: 10, nice: '09' })).toEqual(
        await index.query(query, { topK: 10, nice: '09' }),
      );
      expect((await loaded.query(unitVector(7000), { topK: 1 }))[0]).toMatchObject({ serial: 'S-3', mark: 'replaced' });
      await loaded.put([{ vector: unitVector(8000), metadata: metadataOf(1000) }]);
      expect(loaded.size).toBe(201);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the same from a memory-mapped view of its file, and refuses to be added to there', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'usearch-index-'));
    try {
      const index = UsearchVectorIndex.fromVectors(DIMENSIONS, items);
      const file = path.join(dir, 'us.usearch');
      index.save(file);

      const viewed = UsearchVectorIndex.load(file, { view: true });

      const query = unitVector(4242);
      expect(viewed.size).toBe(200);
      expect(await viewed.query(query, { topK: 10, liveOnly: true })).toEqual(
        await index.query(query, { topK: 10, liveOnly: true }),
      );
      await expect(viewed.put([{ vector: unitVector(8000), metadata: metadataOf(1000) }])).rejects.toThrow(/read-only/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a vector of the wrong dimension and an aborted query', async () => {
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, items.slice(0, 5));

    await expect(index.query(new Float32Array(DIMENSIONS + 1), { topK: 1 })).rejects.toThrow(RangeError);
    await expect(index.query(vectors[0]!, { topK: 1, signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it('maps cosine distance to a score in [0, 1]', () => {
    expect([0, 0.25, 1, 1.5, 2, -0.000001].map(scoreOfCosineDistance)).toEqual([1, 0.75, 0, 0, 0, 1]);
  });
});
