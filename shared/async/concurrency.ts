/**
 * The one concurrency limiter of the service: `concurrencyLimit(n)` gives a gate that runs at most `n` of the tasks
 * handed to it at a time, in the order they are handed over; `mapWithConcurrency` maps an array through one.
 */
export type Limit = <T>(task: () => Promise<T>) => Promise<T>;

export function concurrencyLimit(limit: number): Limit {
  if (!(limit >= 1)) throw new RangeError(`concurrency limit must be at least 1, not ${limit}`);
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Runs `task` over every item with at most `limit` in flight; results in item order. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const gate = concurrencyLimit(limit);
  return Promise.all(items.map((item, index) => gate(() => task(item, index))));
}
