import { mapWithConcurrency } from '../../../shared/async/concurrency';
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
