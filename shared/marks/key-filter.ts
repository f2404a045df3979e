/**
 * Which lookup keys exist in a market, as a Bloom filter: screening asks it before asking DynamoDB, so that the
 * thousands of word runs in a batch of titles that name no mark cost no lookup at all. A filter can say "maybe"
 * for a key that is absent (about 1 in 100 at its designed load), never "no" for a key that exists, so screening
 * stays exact: a "maybe" is simply looked up.
 */
const BITS_PER_KEY = 10;
const HASHES = 7;
const MIN_BITS = 1 << 16;

function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class KeyFilter {
  private constructor(
    readonly bits: Uint8Array,
    /** Keys added so far (the filter is designed for `capacity`). */
    public count: number,
    readonly capacity: number,
  ) {}

  static forCapacity(capacity: number): KeyFilter {
    let bits = MIN_BITS;
    while (bits < capacity * BITS_PER_KEY) bits *= 2;
    return new KeyFilter(new Uint8Array(bits / 8), 0, bits / BITS_PER_KEY);
  }

  static fromBytes(bytes: Uint8Array, count: number): KeyFilter {
    return new KeyFilter(bytes, count, (bytes.length * 8) / BITS_PER_KEY);
  }

  /** Bit i of the key's HASHES positions (double hashing: h1 + i * h2). */
  private position(h1: number, h2: number, i: number): number {
    return ((h1 + Math.imul(i, h2)) >>> 0) % (this.bits.length * 8);
  }

  add(key: string): void {
    const h1 = fnv1a(key, 0);
    const h2 = fnv1a(key, 0x5bd1e995) | 1;
    for (let i = 0; i < HASHES; i++) {
      const p = this.position(h1, h2, i);
      this.bits[p >>> 3]! |= 1 << (p & 7);
    }
    this.count++;
  }

  mightContain(key: string): boolean {
    const h1 = fnv1a(key, 0);
    const h2 = fnv1a(key, 0x5bd1e995) | 1;
    for (let i = 0; i < HASHES; i++) {
      const p = this.position(h1, h2, i);
      if ((this.bits[p >>> 3]! & (1 << (p & 7))) === 0) return false;
    }
    return true;
  }

  /**
   * The same keys in a filter of the smallest size that still holds them at its design load: halved while half
   * would do. Halving is exact: a position is taken modulo a power of two, so the upper half of the bits folds onto
   * the lower half and gives the very filter the keys would have made at half the size. A filter can therefore
   * start large when the number of keys is not known and be saved at its right size without reading them again.
   */
  compacted(): KeyFilter {
    let bits = this.bits;
    while (bits.length * 8 > MIN_BITS && this.count <= (bits.length * 8) / 2 / BITS_PER_KEY) {
      const half = bits.length / 2;
      const folded = bits.slice(0, half);
      for (let i = 0; i < half; i++) folded[i]! |= bits[half + i]!;
      bits = folded;
    }
    return bits === this.bits ? this : KeyFilter.fromBytes(bits, this.count);
  }

  /** Whether adding this many more keys keeps it within the load it was designed for. */
  hasRoomFor(more: number): boolean {
    return this.count + more <= this.capacity;
  }
}

/**
 * A filter that grows while a batch is written: when its newest layer is full, a layer twice its size is added,
 * and a key is absent only when every layer says so. It keeps the guarantee that matters to a writer (no "no" for
 * a key it was given) however many keys come; it is never saved as it is (the saved filter is one layer, rebuilt
 * from the store when it no longer fits).
 */
export class GrowingKeyFilter {
  private readonly layers: KeyFilter[];
  /** What the filter held when the batch began. */
  readonly startCount: number;

  constructor(start: KeyFilter) {
    this.layers = [start];
    this.startCount = start.count;
  }

  /** The filter as it was loaded, when nothing outgrew it. */
  get single(): KeyFilter | undefined {
    return this.layers.length === 1 ? this.layers[0] : undefined;
  }

  add(key: string): void {
    let last = this.layers[this.layers.length - 1]!;
    if (!last.hasRoomFor(1)) {
      last = KeyFilter.forCapacity(2 * last.capacity);
      this.layers.push(last);
    }
    last.add(key);
  }

  mightContain(key: string): boolean {
    for (const layer of this.layers) if (layer.mightContain(key)) return true;
    return false;
  }

  get count(): number {
    let count = 0;
    for (const layer of this.layers) count += layer.count;
    return count;
  }
}
