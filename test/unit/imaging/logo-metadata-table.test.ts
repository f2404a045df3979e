import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogoMetadataTable } from '../../../shared/adapters/local/logo-metadata-table';
import type { LogoMetadata } from '../../../shared/ports';

const ALL_CLASSES = Array.from({ length: 45 }, (_, i) => String(i + 1).padStart(2, '0'));
const MARKS = ['ÉCLAIR', '小米', 'Ñandú 🐦', 'Straße', 'plain', ''];

function metadataOf(i: number): LogoMetadata {
  return {
    serial: `S-${i}`,
    design: `images/${i % 7}/d-${i}.png`,
    mark: `${MARKS[i % MARKS.length]} ${i}`,
    nice: ALL_CLASSES.filter((_, c) => (i + c) % 5 === 0 || c === i % 45),
    isLive: i % 3 !== 0,
  };
}

/** A small linear congruential generator: the same seed, the same operations. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('LogoMetadataTable', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'metadata-table-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('gives back every design as it came, unicode marks and all 45 classes, through a file', () => {
    const table = LogoMetadataTable.empty();
    const all = { serial: 'S-all', design: 'all.png', mark: '全部 classes ✓', nice: ALL_CLASSES, isLive: true };
    table.append(1, all);
    for (let i = 0; i < 5000; i++) table.append(i + 2, metadataOf(i));
    const file = path.join(folder, 'index.meta');

    table.writeTo(file, { dimensions: 8, nextKey: 5002 });
    const { table: read, header } = LogoMetadataTable.readFrom(file);

    expect(header).toEqual({ dimensions: 8, nextKey: 5002 });
    expect(read.size).toBe(5001);
    expect(read.metadataAt(read.rowOf(1))).toEqual(all);
    expect([...read.entries()]).toEqual([...table.entries()]);
    expect(read.keyOf('S-4321', 'images/2/d-4321.png')).toBe(4323);
    expect(read.hasNiceAt(read.rowOf(1), '45')).toBe(true);
    expect(read.hasNiceAt(read.rowOf(1), '46')).toBe(false);
  });

  it('keeps a Nice list the mask cannot give back (out of order, repeated, not two digits) as it came', () => {
    const table = LogoMetadataTable.empty();
    const odd = [['25', '09'], ['09', '09'], ['9', '46', ''], []];
    for (const [i, nice] of odd.entries()) table.append(i + 1, { ...metadataOf(i), nice });
    const file = path.join(folder, 'index.meta');
    table.writeTo(file, {});

    const { table: read } = LogoMetadataTable.readFrom(file);

    expect([...read.entries()].map((e) => e.metadata.nice)).toEqual(odd);
    expect(read.hasNiceAt(read.rowOf(3), '9')).toBe(true);
    expect(read.hasNiceAt(read.rowOf(3), '09')).toBe(false);
    expect(read.hasNiceAt(read.rowOf(1), '25')).toBe(true);
  });

  it('agrees with a Map over thousands of random appends, replacements and removals, saved and read midway', () => {
    const random = seeded(7);
    let table = LogoMetadataTable.empty();
    const reference = new Map<number, LogoMetadata>();
    const keyOfDesign = new Map<string, number>();
    let nextKey = 1;
    for (let step = 0; step < 6000; step++) {
      const r = random();
      const i = Math.floor(random() * 1500);
      const metadata = { ...metadataOf(i), isLive: random() < 0.5, mark: `m${step}` };
      const name = `${metadata.serial}\u0000${metadata.design}`;
      if (r < 0.7) {
        // A put: the design's old key (if any) goes, a new key comes.
        const previous = keyOfDesign.get(name);
        expect(table.keyOf(metadata.serial, metadata.design)).toBe(previous);
        if (previous !== undefined) {
          expect(table.remove(previous)).toBe(true);
          reference.delete(previous);
        }
        table.append(nextKey, metadata);
        reference.set(nextKey, metadata);
        keyOfDesign.set(name, nextKey++);
      } else if (r < 0.95) {
        const key = 1 + Math.floor(random() * nextKey);
        const held = reference.get(key);
        expect(table.remove(key)).toBe(held !== undefined);
        if (held) {
          reference.delete(key);
          keyOfDesign.delete(`${held.serial}\u0000${held.design}`);
        }
      } else {
        const file = path.join(folder, `step-${step}.meta`);
        table.writeTo(file, {});
        table = LogoMetadataTable.readFrom(file).table;
      }
      expect(table.size).toBe(reference.size);
    }
    expect([...table.entries()]).toEqual([...reference].map(([key, metadata]) => ({ key, metadata })));
    for (const [name, key] of keyOfDesign) {
      const [serial, design] = name.split('\u0000') as [string, string];
      expect(table.keyOf(serial, design)).toBe(key);
    }
    for (let key = 0; key < nextKey; key++) expect(table.rowOf(key) >= 0).toBe(reference.has(key));
  });

  it('refuses a key not above the last and a design held already', () => {
    const table = LogoMetadataTable.empty();
    table.append(5, metadataOf(1));

    expect(() => table.append(5, metadataOf(2))).toThrow(/not greater/);
    expect(() => table.append(6, metadataOf(1))).toThrow(/held already/);
  });

  it('refuses a file that is not its format or is cut short', () => {
    const table = LogoMetadataTable.empty();
    for (let i = 0; i < 100; i++) table.append(i + 1, metadataOf(i));
    const file = path.join(folder, 'index.meta');
    table.writeTo(file, {});
    truncateSync(file, 2000);

    expect(() => LogoMetadataTable.readFrom(file)).toThrow(/cut short/);
    writeFileSync(file, '{"format":"usearch-logo-index/2"}');
    expect(() => LogoMetadataTable.readFrom(file)).toThrow(/not a usearch-logo-metadata\/1 file/);
  });

  it('holds 200,000 designs in about 100 bytes each, outside the JS heap', () => {
    const table = LogoMetadataTable.empty();
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200_000; i++) {
      const serial = `RSL-${String(i).padStart(8, '0')}`;
      table.append(i + 1, {
        serial,
        design: `images/${String(i >> 10).padStart(4, '0')}/${serial}.svg`,
        mark: `mark ${i}`,
        nice: [ALL_CLASSES[i % 45]!],
        isLive: true,
      });
    }
    expect(table.keyOf('RSL-00123456', 'images/0120/RSL-00123456.svg')).toBe(123_457);
    global.gc?.();
    const heapAdded = process.memoryUsage().heapUsed - heapBefore;

    // Strings of about 54 bytes, 23 bytes of columns and a hash slot: with doubling's spare room, under 200 bytes.
    expect(table.byteLength / table.size).toBeLessThan(200);
    table.compact();
    expect(table.byteLength / table.size).toBeLessThan(100);
    // A JS object a design took about 360 bytes of heap; the columns take none (a loose bound without --expose-gc).
    expect(heapAdded).toBeLessThan(global.gc ? 4_000_000 : 30_000_000);
  });
});
