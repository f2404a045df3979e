/**
 * The fixed-window rate limiter on DynamoDB Local, with a 60-second window and time given as explicit Dates.
 */
import { randomBytes } from 'node:crypto';
import type { RateLimiter } from '../../shared/ports';
import { createTestStack } from '../support/test-stack';

const WINDOW_START = new Date('2030-01-01T12:00:00.000Z'); // a multiple of 60 s since the epoch
const at = (ms: number) => new Date(WINDOW_START.getTime() + ms);
const freshAccount = () => `acct_${randomBytes(6).toString('hex')}`;

let limiter: RateLimiter;

beforeAll(async () => {
  const stack = await createTestStack({ RATE_LIMIT_WINDOW_SECONDS: '60' });
  limiter = stack.deps.rateLimiter;
});

describe('DynamoDbRateLimiter', () => {
  it('the first hit is allowed, with limit - 1 remaining', async () => {
    const decision = await limiter.hit(freshAccount(), 5, at(30_000));

    expect(decision).toEqual({ allowed: true, limit: 5, remaining: 4, resetSeconds: 30 });
  });

  it('counts down hit by hit, then refuses', async () => {
    const account = freshAccount();
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.hit(account, 3, at(1_000 + i)));

    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
  });

  it('of 20 concurrent hits exactly `limit` are allowed, each with a different remaining count', async () => {
    const account = freshAccount();

    const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.hit(account, 7, at(10_000))));

    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(7);
    expect(allowed.map((d) => d.remaining).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0)).toBe(true);
  });

  it('a new window starts the count again', async () => {
    const account = freshAccount();
    await Promise.all(Array.from({ length: 4 }, () => limiter.hit(account, 2, at(59_000))));
    expect((await limiter.hit(account, 2, at(59_999))).allowed).toBe(false);

    const next = await limiter.hit(account, 2, at(60_000));

    expect(next).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
  });

  it('accounts do not share a window', async () => {
    const busy = freshAccount();
    await Promise.all(Array.from({ length: 3 }, () => limiter.hit(busy, 3, at(5_000))));

    const other = await limiter.hit(freshAccount(), 3, at(5_000));

    expect((await limiter.hit(busy, 3, at(5_001))).allowed).toBe(false);
    expect(other.allowed).toBe(true);
  });

  it.each([
    [0, 60],
    [1, 60],
    [999, 60],
    [1_000, 59],
    [30_000, 30],
    [58_999, 2],
    [59_000, 1],
    [59_999, 1],
  ])('at %i ms into the window, resetSeconds is %i', async (ms, expected) => {
    const decision = await limiter.hit(freshAccount(), 10, at(ms));

    expect(decision.resetSeconds).toBe(expected);
  });

  it('a refused hit still says when the window resets', async () => {
    const account = freshAccount();
    await limiter.hit(account, 1, at(15_000));

    const refused = await limiter.hit(account, 1, at(45_500));

    expect(refused).toEqual({ allowed: false, limit: 1, remaining: 0, resetSeconds: 15 });
  });

  it('a lower limit takes effect at once within a window', async () => {
    const account = freshAccount();
    await Promise.all(Array.from({ length: 3 }, () => limiter.hit(account, 10, at(2_000))));

    const lowered = await limiter.hit(account, 3, at(2_500));
    const raised = await limiter.hit(account, 10, at(3_000));

    expect(lowered.allowed).toBe(false);
    expect(raised).toMatchObject({ allowed: true, remaining: 6 });
  });
});
