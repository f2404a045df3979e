import { concurrencyLimit, mapWithConcurrency } from '../../../shared/async/concurrency';
import { sleep } from '../../../shared/async/retry';

describe('mapWithConcurrency', () => {
  it('keeps at most `limit` tasks in flight and returns results in input order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapWithConcurrency([30, 5, 20, 1, 10, 2], 2, async (ms, i) => {
      most = Math.max(most, ++inFlight);
      await sleep(ms);
      inFlight--;
      return `${i}:${ms}`;
    });
    expect(most).toBe(2);
    expect(results).toEqual(['0:30', '1:5', '2:20', '3:1', '4:10', '5:2']);
  });

  it('handles no items and refuses a limit below one', async () => {
    await expect(mapWithConcurrency([], 3, async () => 1)).resolves.toEqual([]);
    await expect(mapWithConcurrency([1], 0, async () => 1)).rejects.toThrow(RangeError);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapWithConcurrency([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('two failed');
        return n;
      }),
    ).rejects.toThrow('two failed');
  });
});

describe('concurrencyLimit', () => {
  it('runs tasks handed over one at a time with at most `limit` at once, in the order they came', async () => {
    const gate = concurrencyLimit(2);
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    const task = (n: number) => async () => {
      started.push(n);
      most = Math.max(most, ++inFlight);
      await sleep(5);
      inFlight--;
      return n * 10;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => gate(task(n))));
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('frees its place when a task fails', async () => {
    const gate = concurrencyLimit(1);
    await expect(gate(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate(async () => 'next')).resolves.toBe('next');
    expect(() => concurrencyLimit(0)).toThrow(RangeError);
  });
});
