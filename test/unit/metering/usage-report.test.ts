/** The usage report's pure parts: ranges and their defaults, the cursor, and the totals. */
import { decodeCursor, encodeCursor, resolveRange, totalsOf } from '../../../shared/metering/usage-report';
import type { LedgerEntry } from '../../../shared/ports';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const entry = (
  at: string,
  operation: string,
  points: number,
  status: LedgerEntry['status'] = 'charged',
  kind: LedgerEntry['kind'] = 'charge',
): LedgerEntry => ({
  accountId: 'a',
  entryId: `${at}#r`,
  kind,
  status,
  operation,
  points,
  units: points,
  requestId: 'r',
  at,
});

describe('resolveRange', () => {
  it('defaults to the 30 days before now; a bare `to` date includes that whole day', () => {
    expect(resolveRange({ limit: 10, scope: 'account' }, NOW)).toMatchObject({
      from: new Date('2026-10-26T12:00:00.000Z'),
      to: NOW,
    });
    expect(resolveRange({ from: '2026-11-01', to: '2026-11-01', limit: 10, scope: 'key' }, NOW)).toMatchObject({
      from: new Date('2026-11-01T00:00:00.000Z'),
      to: new Date('2026-11-02T00:00:00.000Z'),
      scope: 'key',
    });
  });

  it('takes range, scope and position from a cursor; refuses one given with another range', () => {
    const cursor = encodeCursor({
      before: '2026-11-20T00:00:00.000Z#x',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
      scope: 'key',
    });
    expect(resolveRange({ cursor, limit: 5, scope: 'key' }, NOW)).toMatchObject({
      before: '2026-11-20T00:00:00.000Z#x',
      scope: 'key',
    });
    expect(() => resolveRange({ cursor, limit: 5, scope: 'account' }, NOW)).toThrow();
    expect(() => resolveRange({ cursor, from: '2026-10-01', limit: 5, scope: 'key' }, NOW)).toThrow();
    expect(() => decodeCursor('bm90IGEgY3Vyc29y')).toThrow();
  });
});

describe('totalsOf', () => {
  it('counts standing charges per operation and day, refunded ones apart, credits not at all', async () => {
    const totals = await totalsOf([
      entry('2026-11-24T10:00:00.000Z', 'batch-screen', 10),
      entry('2026-11-24T11:00:00.000Z', 'batch-screen', 5),
      entry('2026-11-23T09:00:00.000Z', 'image-search', 5),
      entry('2026-11-23T09:30:00.000Z', 'image-search', 5, 'refunded'),
      entry('2026-11-22T09:00:00.000Z', 'credit', 100, 'credited', 'credit'),
    ]);
    expect(totals).toEqual({
      requests: 3,
      points: 20,
      units: 20,
      refunded_requests: 1,
      complete: true,
      by_operation: {
        'batch-screen': { requests: 2, points: 15, units: 15 },
        'image-search': { requests: 1, points: 5, units: 5 },
      },
      by_day: [
        { date: '2026-11-24', operation: 'batch-screen', requests: 2, points: 15, units: 15 },
        { date: '2026-11-23', operation: 'image-search', requests: 1, points: 5, units: 5 },
      ],
    });
  });

  it('stops at its bound and says the totals are not complete', async () => {
    const many = Array.from({ length: 5 }, (_, i) => entry(`2026-11-24T10:00:0${i}.000Z`, 'batch-screen', 1));
    expect(await totalsOf(many, 3)).toMatchObject({ requests: 3, complete: false });
  });
});
