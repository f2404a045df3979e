/**
 * The one retry loop of the service: exponential backoff, full jitter by default, a bounded number of attempts, and
 * a predicate that says which failures are worth another try (the caller's: a conflict, a throttle, a timeout).
 */
export interface RetryOptions {
  /** Attempts in all, the first included (at least 1). */
  attempts: number;
  /** The pause before attempt n+1 is up to min(capMs, baseMs * 2^n). */
  baseMs: number;
  capMs: number;
  /** Whether a failure of attempt `attempt` (1-based) is worth another try. Default: every failure is. */
  retryable?: (error: unknown, attempt: number) => boolean;
  /** `full` (default) waits a random time up to the bound, spreading contending callers; `none` waits the bound. */
  jitter?: 'full' | 'none';
  /** Asked before each pause: false stops retrying (e.g. when the caller's deadline would pass during it). */
  canWait?: (pauseMs: number, attempt: number) => boolean;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function backoffDelay(
  attempt: number,
  options: Pick<RetryOptions, 'baseMs' | 'capMs' | 'jitter' | 'random'>,
): number {
  const bound = Math.min(options.capMs, options.baseMs * 2 ** attempt);
  return options.jitter === 'none' ? bound : (options.random ?? Math.random)() * bound;
}

/** Runs `operation` until it succeeds, a failure is not retryable, or the attempts run out (the last error is thrown). */
export async function retry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const wait = options.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= options.attempts || !(options.retryable?.(error, attempt) ?? true)) throw error;
      const pause = backoffDelay(attempt, options);
      if (options.canWait && !options.canWait(pause, attempt)) throw error;
      await wait(pause);
    }
  }
}
