import { GrowingKeyFilter, KeyFilter } from '../../../shared/marks/key-filter';

it('never says no for a key it holds, and rarely yes for one it does not', () => {
  const filter = KeyFilter.forCapacity(20_000);
  for (let i = 0; i < 20_000; i++) filter.add(`e:brand${i}`);

  for (let i = 0; i < 20_000; i++) expect(filter.mightContain(`e:brand${i}`)).toBe(true);
  let falseYes = 0;
  for (let i = 0; i < 20_000; i++) if (filter.mightContain(`e:other${i}`)) falseYes++;
  expect(falseYes / 20_000).toBeLessThan(0.02);
});

it('travels as bytes and knows when it is full', () => {
  const filter = KeyFilter.forCapacity(100);
  filter.add('e:nike');
  const copy = KeyFilter.fromBytes(Uint8Array.from(filter.bits), filter.count);
  expect(copy.mightContain('e:nike')).toBe(true);
  expect(copy.mightContain('e:adidas')).toBe(false);
  expect(copy.hasRoomFor(copy.capacity - 1)).toBe(true);
  expect(copy.hasRoomFor(copy.capacity)).toBe(false);
});

it('grows past its design load without ever saying no for a key it was given, and keeps false yeses rare', () => {
  const start = KeyFilter.forCapacity(1_000);
  const filter = new GrowingKeyFilter(start);
  for (let i = 0; i < 50_000; i++) filter.add(`s:${i}`);

  expect(filter.single).toBeUndefined();
  expect(filter.count).toBe(50_000);
  expect(filter.startCount).toBe(0);
  for (let i = 0; i < 50_000; i++) expect(filter.mightContain(`s:${i}`)).toBe(true);
  let falseYes = 0;
  for (let i = 0; i < 20_000; i++) if (filter.mightContain(`t:${i}`)) falseYes++;
  expect(falseYes / 20_000).toBeLessThan(0.05);
});

it('is the filter it was loaded as while that one has room', () => {
  const start = KeyFilter.forCapacity(10_000);
  start.add('e:nike');
  const filter = new GrowingKeyFilter(start);
  filter.add('e:adidas');
  expect(filter.single).toBe(start);
  expect([filter.startCount, filter.count]).toEqual([1, 2]);
});

it('compacts to the very filter its keys would have made at the smaller size', () => {
  const big = KeyFilter.forCapacity(1_000_000);
  const direct = KeyFilter.forCapacity(3_000);
  for (let i = 0; i < 3_000; i++) {
    big.add(`e:mark${i}`);
    direct.add(`e:mark${i}`);
  }

  const compacted = big.compacted();

  expect(compacted.bits.length).toBe(direct.bits.length);
  expect(Buffer.from(compacted.bits).equals(Buffer.from(direct.bits))).toBe(true);
  expect([compacted.count, compacted.capacity]).toEqual([direct.count, direct.capacity]);
  expect(KeyFilter.forCapacity(100).compacted().bits.length * 8).toBe(1 << 16);
});
