import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { UsearchVectorIndex } from '../../../shared/adapters/local/usearch-vector-index';
import type { LogoMetadata, VectorMatch } from '../../../shared/ports';
import { seededUnitVector } from '../../support/seeded-vectors';
import { tempFolderEachTest } from '../../support/temp-folder';

const DIMENSIONS = 16;
const ALL_CLASSES = Array.from({ length: 45 }, (_, c) => String(c + 1).padStart(2, '0'));
const MARKS = ['ÉCLAIR', '小米', 'Ñandú 🐦', 'plain'];
const LEGACY = path.join(__dirname, '../../fixtures/imaging/usearch-json-sidecar/US-test.usearch');

/** The designs of the fixture (see its SOURCE.txt): serial S-i, design d-(i mod 3).png. */
function item(i: number, seed = i + 1): { vector: Float32Array; metadata: LogoMetadata } {
  return {
    vector: seededUnitVector(seed, DIMENSIONS),
    metadata: {
      serial: `S-${i}`,
      design: `d-${i % 3}.png`,
      mark: `${MARKS[i % 4]} ${i}`,
      nice: i === 0 ? ALL_CLASSES : [ALL_CLASSES[i % 45]!],
      isLive: i % 4 !== 0,
    },
  };
}

const ITEMS = Array.from({ length: 60 }, (_, i) => item(i));

/** The answers to a set of queries with and without filters, for comparing two indexes. */
async function answers(index: UsearchVectorIndex): Promise<VectorMatch[][]> {
  const queries = [
    ...ITEMS.slice(0, 20).map((it) => ({ vector: it.vector, topK: 5 })),
    { vector: seededUnitVector(500, DIMENSIONS), topK: 60 },
    { vector: seededUnitVector(501, DIMENSIONS), topK: 10, nice: '45' },
    { vector: seededUnitVector(502, DIMENSIONS), topK: 10, nice: '02', liveOnly: true },
  ];
  return Promise.all(queries.map(({ vector, ...query }) => index.query(vector, query)));
}

describe('UsearchVectorIndex metadata file', () => {
  const folderOf = tempFolderEachTest('usearch-meta-');

  it('saves and loads many designs with unicode marks and all 45 classes, read or mapped', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => item(i));
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, many);
    const file = path.join(folderOf(), 'US-test.usearch');

    index.save(file);
    const loaded = UsearchVectorIndex.load(file);
    const mapped = UsearchVectorIndex.load(file, { view: true });

    expect(readdirSync(folderOf()).sort()).toEqual(['US-test.usearch', 'US-test.usearch.meta']);
    expect(loaded.size).toBe(3000);
    const first = (await loaded.query(many[0]!.vector, { topK: 1 }))[0]!;
    expect(first).toMatchObject({ ...many[0]!.metadata, score: expect.closeTo(1, 5) });
    const unicode = (await mapped.query(many[2]!.vector, { topK: 1 }))[0]!;
    expect(unicode).toMatchObject({ serial: 'S-2', mark: 'Ñandú 🐦 2', nice: ['03'], isLive: true });
    expect(await answers(loaded)).toEqual(await answers(index));
    expect(await answers(mapped)).toEqual(await answers(index));
  });

  it('replaces a design filed again: its old vector is gone from every answer, before and after a save', async () => {
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, ITEMS);
    const oldVector = ITEMS[10]!.vector;
    await index.put([{ ...item(10, 9999), metadata: { ...ITEMS[10]!.metadata, mark: 'REFILED' } }]);
    const file = path.join(folderOf(), 'US-test.usearch');
    index.save(file);

    for (const searched of [index, UsearchVectorIndex.load(file)]) {
      expect(searched.size).toBe(60);
      const nearOld = await searched.query(oldVector, { topK: 60 });
      const s10 = nearOld.filter((m) => m.serial === 'S-10');
      expect(s10).toHaveLength(1);
      expect(s10[0]!.mark).toBe('REFILED');
      expect(s10[0]!.score).toBeLessThan(0.99);
      expect((await searched.query(seededUnitVector(9999, DIMENSIONS), { topK: 1 }))[0]!.mark).toBe('REFILED');
    }
  });

  it('leaves no stale design after every design is filed five times more (removed rows compacted away)', async () => {
    const index = UsearchVectorIndex.fromVectors(DIMENSIONS, ITEMS);
    // Under usearch 2.25, from the third round remove missed keys added into freed slots (unum-cloud/USearch#697,
    // fixed upstream by #727, in 2.26): the index kept stale vectors and its saved file held more vectors than
    // designs, so it refused to load.
    for (let round = 1; round <= 5; round++)
      await index.put(
        ITEMS.map((it, i) => ({ ...item(i, round * 1000 + i), metadata: { ...it.metadata, mark: `r${round}` } })),
      );
    const file = path.join(folderOf(), 'US-test.usearch');
    index.save(file);
    const loaded = UsearchVectorIndex.load(file);

    for (const searched of [index, loaded]) {
      expect(searched.size).toBe(60);
      const all = await searched.query(seededUnitVector(77, DIMENSIONS), { topK: 100 });
      // One design a serial here: 60 marks, each answered by the last round's vector.
      expect(all).toHaveLength(60);
      expect(all.every((m) => m.mark === 'r5')).toBe(true);
      for (const it of ITEMS.slice(0, 10))
        expect(
          (await searched.query(it.vector, { topK: 60 })).find((m) => m.serial === it.metadata.serial)!.score,
        ).toBeLessThan(0.99);
    }
  });

  it('loads an index saved with a JSON sidecar and answers as an index built from the same designs', async () => {
    const file = path.join(folderOf(), 'US-test.usearch');
    copyFileSync(LEGACY, file);
    copyFileSync(`${LEGACY}.json`, `${file}.json`);
    const rebuilt = UsearchVectorIndex.fromVectors(DIMENSIONS, ITEMS);
    await rebuilt.put([item(7, 1007)]);

    const legacy = UsearchVectorIndex.load(file);
    const legacyMapped = UsearchVectorIndex.load(file, { view: true });

    expect(legacy.size).toBe(60);
    const s0 = (await legacy.query(ITEMS[0]!.vector, { topK: 1 }))[0]!;
    expect(s0).toMatchObject({ ...ITEMS[0]!.metadata, score: expect.closeTo(1, 5) });
    expect((await legacy.query(seededUnitVector(1007, DIMENSIONS), { topK: 1 }))[0]!.serial).toBe('S-7');
    const strip = (all: VectorMatch[][]) =>
      all.map((ms) => ms.map((m) => ({ ...m, score: Number(m.score.toFixed(5)) })));
    expect(strip(await answers(legacy))).toEqual(strip(await answers(rebuilt)));
    expect(strip(await answers(legacyMapped))).toEqual(strip(await answers(rebuilt)));
  });

  it('writes the new file on the next save of a legacy index, and drops the JSON sidecar', async () => {
    const file = path.join(folderOf(), 'US-test.usearch');
    copyFileSync(LEGACY, file);
    copyFileSync(`${LEGACY}.json`, `${file}.json`);
    const legacy = UsearchVectorIndex.load(file);
    const before = await answers(legacy);
    await legacy.put([item(60)]);

    legacy.save(file);
    const reloaded = UsearchVectorIndex.load(file);

    expect(existsSync(`${file}.json`)).toBe(false);
    expect(existsSync(`${file}.meta`)).toBe(true);
    expect(reloaded.size).toBe(61);
    expect((await reloaded.query(item(60).vector, { topK: 1 }))[0]!.serial).toBe('S-60');
    const firsts = (all: VectorMatch[][]) => all.slice(0, 20).map((ms) => ms[0]);
    expect(firsts(await answers(reloaded))).toEqual(firsts(before));
  });
});
