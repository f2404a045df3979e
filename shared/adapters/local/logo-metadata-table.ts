/**
 * The metadata of a usearch logo index (serial, design, mark, Nice classes, in force) kept in columns of typed arrays
 * and one byte pool, off the JS heap: one JS object a design cost about 360 bytes of heap at 100,000 designs, and a
 * million designs did not fit the ingest's 256 MB heap ceiling. Here a design costs its strings' UTF-8 bytes and 23
 * bytes of columns, plus 4 to 8 bytes of its hash slot once a design is looked up by name.
 *
 * Rows: one per key, appended in the order keys are given (each new key greater than the last), so the key column is
 * sorted and a key is found by binary search. A removed row is only flagged deleted (its strings stay in the pool)
 * until more than half the rows are deleted or the table is saved; then the live rows are copied into fresh columns.
 * Columns and pool double when full.
 *
 * Strings: the serial, design and mark of a row sit one after the other in the pool (UTF-8), from its start, with
 * their byte lengths (at most 65,535 bytes each). A row's strings are decoded only when its metadata is asked for,
 * so the candidates a query drops for its filters are never made into objects.
 *
 * Nice classes: a bitmask of classes 01 to 45 in two 32-bit words. A list that the mask cannot give back as it came
 * (a class not written "01" to "45", out of ascending order, or repeated) is kept as it came in a small Map by key.
 *
 * (serial, design) -> row: an open-addressing table (linear probing, at most 3/4 full) of row + 1 over the FNV-1a hash
 * of the serial's bytes, a zero byte and the design's; a hit is checked against the pooled bytes. Removal shifts the
 * probe chain back (no tombstones). It is built on the first lookup: a process that only searches never needs it.
 *
 * File (`writeLogoMetadataFile`): a 4-byte little-endian length, a JSON header (format, the caller's fields, rows,
 * pool bytes, the listed Nice classes), then the columns keys, starts, lengths, nice, flags and the pool, each from
 * an offset that is a multiple of 8 past the header. Read back, the columns are views of the file's one buffer.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { LogoMetadata } from '../../ports';

export const METADATA_FORMAT = 'usearch-logo-metadata/1';

const LIVE = 1;
const DELETED = 2;
const LISTED_NICE = 4;
const MAX_STRING_BYTES = 0xffff;
const MAX_KEY = 0xffffffff;
const COMPACT_AFTER_DELETED = 64;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The two words of a Nice class written "01" to "45" (class c is bit c - 1), or undefined for anything else. */
function niceBit(nice: string): [word: number, bit: number] | undefined {
  if (nice.length !== 2) return undefined;
  const c = Number(nice);
  if (!Number.isInteger(c) || c < 1 || c > 45 || nice !== String(c).padStart(2, '0')) return undefined;
  return [(c - 1) >> 5, 1 << ((c - 1) & 31)];
}

/** The mask of a list of classes when the mask gives the list back exactly (ascending, no repeats), else undefined. */
function niceMask(nice: readonly string[]): [number, number] | undefined {
  const mask: [number, number] = [0, 0];
  let previous = '';
  for (const c of nice) {
    const bit = niceBit(c);
    if (!bit || c <= previous) return undefined;
    if (bit[0] === 0) mask[0] |= bit[1];
    else mask[1] |= bit[1];
    previous = c;
  }
  return mask;
}

function classesOf(low: number, high: number): string[] {
  const out: string[] = [];
  for (let c = 1; c <= 45; c++) {
    const word = c <= 32 ? low : high;
    if (word & (1 << ((c - 1) & 31))) out.push(String(c).padStart(2, '0'));
  }
  return out;
}

function fnv(bytes: Uint8Array, from: number, to: number, seed: number): number {
  let h = seed;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return h >>> 0;
}

/** The hash of serial bytes, a zero byte, then design bytes. */
function designHash(bytes: Uint8Array, serialAt: number, serialLength: number, designAt: number, designLength: number) {
  const h = Math.imul(fnv(bytes, serialAt, serialAt + serialLength, FNV_OFFSET), FNV_PRIME);
  return fnv(bytes, designAt, designAt + designLength, h >>> 0);
}

function grown<T extends Uint8Array | Uint16Array | Uint32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array.subarray(0, Math.min(array.length, length)));
  return next;
}

interface Columns {
  keys: Uint32Array;
  starts: Uint32Array;
  lengths: Uint16Array;
  nice: Uint32Array;
  flags: Uint8Array;
}

export class LogoMetadataTable {
  private rows = 0;
  private deleted = 0;
  private columns: Columns;
  private pool: Buffer;
  private poolUsed = 0;
  private slots: Uint32Array | undefined;
  private readonly listedNice = new Map<number, string[]>();
  /** The bytes of the strings being looked up or added: a view of `scratchStore`, exactly as long as they are. */
  private scratch = Buffer.alloc(0);
  private scratchStore = Buffer.allocUnsafeSlow(256);

  private constructor(columns: Columns, pool: Buffer, rows: number, poolUsed: number) {
    this.columns = columns;
    this.pool = pool;
    this.rows = rows;
    this.poolUsed = poolUsed;
  }

  static empty(capacity = 16): LogoMetadataTable {
    return new LogoMetadataTable(emptyColumns(capacity), Buffer.alloc(capacity * 64), 0, 0);
  }

  /** Designs held (rows not deleted). */
  get size(): number {
    return this.rows - this.deleted;
  }

  /** Bytes of the typed arrays and the pool the table holds now (its capacity, not only what is used). */
  get byteLength(): number {
    const c = this.columns;
    return (
      c.keys.byteLength +
      c.starts.byteLength +
      c.lengths.byteLength +
      c.nice.byteLength +
      c.flags.byteLength +
      this.pool.length +
      (this.slots?.byteLength ?? 0)
    );
  }

  /** The row of a key held, or -1. */
  rowOf(key: number): number {
    const keys = this.columns.keys;
    let low = 0;
    let high = this.rows - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = keys[mid]!;
      if (at < key) low = mid + 1;
      else if (at > key) high = mid - 1;
      else return this.columns.flags[mid]! & DELETED ? -1 : mid;
    }
    return -1;
  }

  isLiveAt(row: number): boolean {
    return (this.columns.flags[row]! & LIVE) !== 0;
  }

  hasNiceAt(row: number, nice: string): boolean {
    if (this.columns.flags[row]! & LISTED_NICE)
      return this.listedNice.get(this.columns.keys[row]!)?.includes(nice) ?? false;
    const bit = niceBit(nice);
    return bit !== undefined && (this.columns.nice[row * 2 + bit[0]]! & bit[1]) !== 0;
  }

  keyAt(row: number): number {
    return this.columns.keys[row]!;
  }

  /** A fresh object (and Nice list) of a row's metadata. */
  metadataAt(row: number): LogoMetadata {
    const { starts, lengths, nice, flags, keys } = this.columns;
    const start = starts[row]!;
    const serialEnd = start + lengths[row * 3]!;
    const designEnd = serialEnd + lengths[row * 3 + 1]!;
    const markEnd = designEnd + lengths[row * 3 + 2]!;
    const listed = flags[row]! & LISTED_NICE ? this.listedNice.get(keys[row]!) : undefined;
    return {
      serial: this.pool.toString('utf8', start, serialEnd),
      design: this.pool.toString('utf8', serialEnd, designEnd),
      mark: this.pool.toString('utf8', designEnd, markEnd),
      nice: listed ? [...listed] : classesOf(nice[row * 2]!, nice[row * 2 + 1]!),
      isLive: (flags[row]! & LIVE) !== 0,
    };
  }

  /** The key of a (serial, design) held, or undefined. */
  keyOf(serial: string, design: string): number | undefined {
    const serialLength = this.encode(serial, design);
    const designLength = this.scratch.length - serialLength;
    const slot = this.slotOf(this.scratch, serialLength, designLength);
    return slot < 0 ? undefined : this.columns.keys[this.slotTable()[slot]! - 1];
  }

  /** Adds a design under a key greater than every key given before; its (serial, design) must not be held. */
  append(key: number, metadata: LogoMetadata): void {
    if (!Number.isInteger(key) || key < 0 || key > MAX_KEY) throw new RangeError(`key ${key} is not a uint32`);
    if (this.rows > 0 && key <= this.columns.keys[this.rows - 1]!)
      throw new RangeError(`key ${key} is not greater than the last key ${this.columns.keys[this.rows - 1]}`);
    const { serial, design, mark } = metadata;
    const serialLength = this.encode(serial, design, mark);
    const designLength = Buffer.byteLength(design);
    const markLength = this.scratch.length - serialLength - designLength;
    if (Math.max(serialLength, designLength, markLength) > MAX_STRING_BYTES)
      throw new RangeError(`a serial, design or mark of ${serial} is longer than ${MAX_STRING_BYTES} bytes`);
    if (this.slotOf(this.scratch, serialLength, designLength) >= 0)
      throw new Error(`design ${design} of ${serial} is held already`);
    this.reserve(this.rows + 1, this.poolUsed + this.scratch.length);
    const row = this.rows++;
    const c = this.columns;
    c.keys[row] = key;
    c.starts[row] = this.poolUsed;
    c.lengths[row * 3] = serialLength;
    c.lengths[row * 3 + 1] = designLength;
    c.lengths[row * 3 + 2] = markLength;
    this.poolUsed += this.scratch.copy(this.pool, this.poolUsed);
    const mask = niceMask(metadata.nice);
    c.nice[row * 2] = mask?.[0] ?? 0;
    c.nice[row * 2 + 1] = mask?.[1] ?? 0;
    c.flags[row] = (metadata.isLive ? LIVE : 0) | (mask ? 0 : LISTED_NICE);
    if (!mask) this.listedNice.set(key, [...metadata.nice]);
    if (this.slots) this.insertSlot(row);
  }

  /** Removes a key; false when it is not held. */
  remove(key: number): boolean {
    const row = this.rowOf(key);
    if (row < 0) return false;
    if (this.slots) this.removeSlot(row);
    this.columns.flags[row] = this.columns.flags[row]! | DELETED;
    this.deleted++;
    this.listedNice.delete(key);
    if (this.deleted >= COMPACT_AFTER_DELETED && this.deleted * 2 > this.rows) this.compact();
    return true;
  }

  *entries(): Generator<{ key: number; metadata: LogoMetadata }> {
    for (let row = 0; row < this.rows; row++)
      if (!(this.columns.flags[row]! & DELETED)) yield { key: this.columns.keys[row]!, metadata: this.metadataAt(row) };
  }

  /** Copies the live rows into columns and a pool of their own size (and a little room). */
  compact(spare = 0): void {
    const live = this.size;
    const from = this.columns;
    const to = emptyColumns(Math.max(16, live + spare));
    let bytes = 0;
    for (let row = 0; row < this.rows; row++)
      if (!(from.flags[row]! & DELETED))
        bytes += from.lengths[row * 3]! + from.lengths[row * 3 + 1]! + from.lengths[row * 3 + 2]!;
    const pool = Buffer.alloc(Math.max(1024, bytes + spare * 64));
    let out = 0;
    let used = 0;
    for (let row = 0; row < this.rows; row++) {
      if (from.flags[row]! & DELETED) continue;
      const length = from.lengths[row * 3]! + from.lengths[row * 3 + 1]! + from.lengths[row * 3 + 2]!;
      this.pool.copy(pool, used, from.starts[row]!, from.starts[row]! + length);
      to.keys[out] = from.keys[row]!;
      to.starts[out] = used;
      to.lengths.set(from.lengths.subarray(row * 3, row * 3 + 3), out * 3);
      to.nice.set(from.nice.subarray(row * 2, row * 2 + 2), out * 2);
      to.flags[out] = from.flags[row]!;
      used += length;
      out++;
    }
    this.columns = to;
    this.pool = pool;
    this.poolUsed = used;
    this.rows = out;
    this.deleted = 0;
    if (this.slots) this.rebuildSlots();
  }

  /** Writes the live rows after a header of the caller's fields (compacting the table first when rows were removed). */
  writeTo(file: string, header: Record<string, unknown>): void {
    if (this.deleted > 0) this.compact();
    const c = this.columns;
    const n = this.rows;
    const parts = [
      c.keys.subarray(0, n),
      c.starts.subarray(0, n),
      c.lengths.subarray(0, n * 3),
      c.nice.subarray(0, n * 2),
      c.flags.subarray(0, n),
      this.pool.subarray(0, this.poolUsed),
    ];
    const json = Buffer.from(
      JSON.stringify({
        ...header,
        format: METADATA_FORMAT,
        rows: n,
        poolBytes: this.poolUsed,
        listedNice: [...this.listedNice],
      }),
    );
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length);
    const fd = openSync(file, 'w');
    try {
      let at = writeAll(fd, length, 0);
      at = writeAll(fd, json, at);
      for (const part of parts) {
        at = writeAll(fd, Buffer.alloc(pad(at)), at);
        at = writeAll(fd, new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at);
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Reads a file written by writeTo: the table (its columns views of the file's buffer) and the caller's fields. */
  static readFrom(file: string): { table: LogoMetadataTable; header: Record<string, unknown> } {
    let buffer = readFileSync(file);
    if (buffer.byteOffset % 8 !== 0) {
      const aligned = Buffer.allocUnsafeSlow(buffer.length);
      buffer.copy(aligned);
      buffer = aligned;
    }
    if (buffer.length < 4) throw new Error(`${file} is not a ${METADATA_FORMAT} file`);
    const headerLength = buffer.readUInt32LE(0);
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(buffer.toString('utf8', 4, 4 + headerLength)) as Record<string, unknown>;
    } catch {
      throw new Error(`${file} is not a ${METADATA_FORMAT} file`);
    }
    if (header.format !== METADATA_FORMAT) throw new Error(`${file} is not a ${METADATA_FORMAT} file`);
    const n = header.rows as number;
    const poolBytes = header.poolBytes as number;
    let at = 4 + headerLength;
    const take = <T>(bytes: number, make: (offset: number) => T): T => {
      at += pad(at);
      if (at + bytes > buffer.length) throw new Error(`${file} is cut short`);
      const made = make(buffer.byteOffset + at);
      at += bytes;
      return made;
    };
    const ab = buffer.buffer;
    const columns: Columns = {
      keys: take(n * 4, (o) => new Uint32Array(ab, o, n)),
      starts: take(n * 4, (o) => new Uint32Array(ab, o, n)),
      lengths: take(n * 6, (o) => new Uint16Array(ab, o, n * 3)),
      nice: take(n * 8, (o) => new Uint32Array(ab, o, n * 2)),
      flags: take(n, (o) => new Uint8Array(ab, o, n)),
    };
    const pool = take(poolBytes, (o) => Buffer.from(ab, o, poolBytes));
    if (at !== buffer.length) throw new Error(`${file} has ${buffer.length - at} bytes past its pool`);
    const table = new LogoMetadataTable(columns, pool, n, poolBytes);
    for (const [key, nice] of header.listedNice as [number, string[]][]) table.listedNice.set(key, nice);
    const fields = { ...header };
    for (const own of ['format', 'rows', 'poolBytes', 'listedNice']) delete fields[own];
    return { table, header: fields };
  }

  /** Puts serial, design (and mark) into the scratch buffer, exactly filling it; returns the serial's byte length. */
  private encode(serial: string, design: string, mark = ''): number {
    const serialLength = Buffer.byteLength(serial);
    const total = serialLength + Buffer.byteLength(design) + Buffer.byteLength(mark);
    if (this.scratchStore.length < total) this.scratchStore = Buffer.allocUnsafeSlow(total * 2);
    this.scratch = this.scratchStore.subarray(0, total);
    this.scratch.write(serial, 0);
    const designEnd = serialLength + this.scratch.write(design, serialLength);
    this.scratch.write(mark, designEnd);
    return serialLength;
  }

  private reserve(rows: number, poolBytes: number): void {
    const c = this.columns;
    if (rows > c.keys.length) {
      const capacity = Math.max(16, c.keys.length * 2, rows);
      this.columns = {
        keys: grown(c.keys, capacity),
        starts: grown(c.starts, capacity),
        lengths: grown(c.lengths, capacity * 3),
        nice: grown(c.nice, capacity * 2),
        flags: grown(c.flags, capacity),
      };
    }
    if (poolBytes > MAX_KEY) throw new RangeError('the metadata of this index outgrew 4 GiB of strings');
    if (poolBytes > this.pool.length) {
      const pool = Buffer.alloc(Math.max(1024, this.pool.length * 2, poolBytes));
      this.pool.copy(pool, 0, 0, this.poolUsed);
      this.pool = pool;
    }
    if (this.slots && (this.size + 1) * 4 > this.slots.length * 3) this.rebuildSlots(this.slots.length * 2);
  }

  private slotTable(): Uint32Array {
    if (!this.slots) this.rebuildSlots();
    return this.slots!;
  }

  private rebuildSlots(capacity = 0): void {
    let size = 16;
    while (size < capacity || size * 3 < this.size * 4 + 4) size *= 2;
    this.slots = new Uint32Array(size);
    for (let row = 0; row < this.rows; row++) if (!(this.columns.flags[row]! & DELETED)) this.insertSlot(row);
  }

  private hashOfRow(row: number): number {
    const start = this.columns.starts[row]!;
    const serialLength = this.columns.lengths[row * 3]!;
    return designHash(this.pool, start, serialLength, start + serialLength, this.columns.lengths[row * 3 + 1]!);
  }

  private insertSlot(row: number): void {
    const slots = this.slots!;
    const mask = slots.length - 1;
    let i = this.hashOfRow(row) & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = row + 1;
  }

  /** The slot holding the design whose serial and design bytes begin `bytes`, or -1. */
  private slotOf(bytes: Buffer, serialLength: number, designLength: number): number {
    const slots = this.slotTable();
    const mask = slots.length - 1;
    const { starts, lengths } = this.columns;
    const length = serialLength + designLength;
    for (let i = designHash(bytes, 0, serialLength, serialLength, designLength) & mask; ; i = (i + 1) & mask) {
      const entry = slots[i]!;
      if (entry === 0) return -1;
      const row = entry - 1;
      const start = starts[row]!;
      if (
        lengths[row * 3] === serialLength &&
        lengths[row * 3 + 1] === designLength &&
        this.pool.compare(bytes, 0, length, start, start + length) === 0
      )
        return i;
    }
  }

  private removeSlot(row: number): void {
    const slots = this.slots!;
    const mask = slots.length - 1;
    let hole = this.hashOfRow(row) & mask;
    while (slots[hole] !== row + 1) hole = (hole + 1) & mask;
    // Backward shift: an entry further along the chain moves into the hole unless its home lies cyclically in
    // (hole, at], where a search for it never passes the hole.
    for (let at = (hole + 1) & mask; slots[at] !== 0; at = (at + 1) & mask) {
      const home = this.hashOfRow(slots[at]! - 1) & mask;
      const staysPut = hole <= at ? home > hole && home <= at : home > hole || home <= at;
      if (staysPut) continue;
      slots[hole] = slots[at]!;
      hole = at;
    }
    slots[hole] = 0;
  }
}

function emptyColumns(capacity: number): Columns {
  return {
    keys: new Uint32Array(capacity),
    starts: new Uint32Array(capacity),
    lengths: new Uint16Array(capacity * 3),
    nice: new Uint32Array(capacity * 2),
    flags: new Uint8Array(capacity),
  };
}

function pad(at: number): number {
  return (8 - (at % 8)) % 8;
}

function writeAll(fd: number, bytes: Uint8Array, at: number): number {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, at + written);
  return at + bytes.length;
}
