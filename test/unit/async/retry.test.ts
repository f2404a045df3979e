import { backoffDelay, retry } from '../../../shared/async/retry';

const noWait = { sleep: async () => {} };

describe('retry', () => {
  it('returns the first success and passes the attempt number', async () => {
    const seen: number[] = [];
    const result = await retry(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw new Error('not yet');
        return 'done';
      },
      { attempts: 5, baseMs: 1, capMs: 10, ...noWait },
    );
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('throws the last error once the attempts run out', async () => {
    let calls = 0;
    const failing = retry(
      async (attempt) => {
        calls++;
        throw new Error(`failure ${attempt}`);
      },
      { attempts: 4, baseMs: 1, capMs: 10, ...noWait },
    );
    await expect(failing).rejects.toThrow('failure 4');
    expect(calls).toBe(4);
  });

  it('does not retry a failure the predicate refuses', async () => {
    let calls = 0;
    const failing = retry(
      async () => {
        calls++;
        throw new TypeError('a bug, not a blip');
      },
      { attempts: 5, baseMs: 1, capMs: 10, retryable: (e) => !(e instanceof TypeError), ...noWait },
    );
    await expect(failing).rejects.toThrow(TypeError);
    expect(calls).toBe(1);
  });

  it('stops when the caller has no time left for the next pause', async () => {
    const pauses: number[] = [];
    const failing = retry(
      async () => {
        throw new Error('down');
      },
      {
        attempts: 10,
        baseMs: 100,
        capMs: 1000,
        jitter: 'none',
        canWait: (pause) => pause <= 400,
        sleep: async (ms) => void pauses.push(ms),
      },
    );
    await expect(failing).rejects.toThrow('down');
    expect(pauses).toEqual([200, 400]);
  });

  it('bounds the pause by the cap, with full jitter below the bound', () => {
    expect(backoffDelay(10, { baseMs: 20, capMs: 1000, jitter: 'none' })).toBe(1000);
    expect(backoffDelay(2, { baseMs: 20, capMs: 1000, jitter: 'none' })).toBe(80);
    expect(backoffDelay(2, { baseMs: 20, capMs: 1000, random: () => 0.5 })).toBe(40);
  });
});
