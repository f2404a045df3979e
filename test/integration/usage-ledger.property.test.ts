/**
 * The money path, on DynamoDB Local: random sequences of debits, failed requests (debit then refund), duplicated
 * refunds (sequential and concurrent), concurrent bursts of debits and credits, against the real DynamoDbUsageLedger.
 * A model kept here, independent of the code under test, says what the balance and every record must be.
 */
import fc from 'fast-check';
import { AccountNotFoundError, InsufficientPointsError } from '../../shared/errors';
import { auditAccount, ledgerBalance } from '../../shared/metering/accounts';
import type { Debit } from '../../shared/ports';
import { createTestStack, testDynamoDbEndpoint, type TestStack } from '../support/test-stack';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { DynamoDbUsageLedger } from '../../shared/adapters/aws/dynamodb-usage-ledger';

let stack: TestStack;

beforeAll(async () => {
  stack = await createTestStack();
});

type Step =
  | { kind: 'debit'; cost: number }
  | { kind: 'fail'; cost: number }
  | { kind: 'refund'; target: number; times: number; concurrent: boolean }
  | { kind: 'credit'; points: number }
  | { kind: 'burst'; costs: number[] };

const cost = fc.integer({ min: 1, max: 60 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('debit' as const), cost }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('fail' as const), cost }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      target: fc.nat(),
      times: fc.integer({ min: 1, max: 3 }),
      concurrent: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('credit' as const), points: fc.integer({ min: 1, max: 100 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('burst' as const),
      costs: fc.array(cost, { minLength: 2, maxLength: 5 }),
    }),
    weight: 1,
  },
);

/** What the ledger must hold, computed here without the code under test. */
class LedgerModel {
  balance: number;
  credits = 0;
  readonly charges = new Map<string, { requestId: string; cost: number; refunded: boolean }>();
  readonly debits: Debit[] = [];
  refusedRequestIds: string[] = [];

  constructor(readonly start: number) {
    this.balance = start;
  }

  charged(debit: Debit, requestId: string): void {
    this.balance -= debit.cost;
    this.charges.set(debit.entryId, { requestId, cost: debit.cost, refunded: false });
    this.debits.push(debit);
  }

  refunded(entryId: string): void {
    const charge = this.charges.get(entryId)!;
    charge.refunded = true;
    this.balance += charge.cost;
  }

  credited(points: number): void {
    this.credits += points;
    this.balance += points;
  }

  /** The identity the ledger promises: start + credits - sum of the charges not refunded. */
  explained(): number {
    let standing = 0;
    for (const c of this.charges.values()) if (!c.refunded) standing += c.cost;
    return this.start + this.credits - standing;
  }
}

async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

describe('DynamoDbUsageLedger, property: no point is lost, invented or refunded twice', () => {
  it('balance = start + credits - unrefunded charges, never negative, refusals leave no record, refunds once', async () => {
    let requestCounter = 0;
    const nextRequestId = () => `req-${++requestCounter}`;

    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 150 }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (start, steps) => {
          // Arrange: a fresh account for every run.
          const { accountId } = await stack.openAccount({ points: start });
          const { ledger, accounts } = stack.deps;
          const model = new LedgerModel(start);
          const balanceNow = async () => (await accounts.getAccount(accountId, { consistent: true }))!.points;
          const debitOnce = (points: number, requestId: string) =>
            ledger.debit({ accountId, cost: points, units: 1, operation: 'property', requestId, now: new Date() });

          // Act, step by step, checking each step against the model.
          for (const s of steps) {
            switch (s.kind) {
              case 'debit':
              case 'fail': {
                const requestId = nextRequestId();
                const outcome = await settle(debitOnce(s.cost, requestId));
                if (model.balance >= s.cost) {
                  expect(outcome.ok).toBe(true);
                  const debit = (outcome as { value: Debit }).value;
                  expect(debit).toMatchObject({ accountId, cost: s.cost });
                  model.charged(debit, requestId);
                  if (s.kind === 'fail') {
                    expect(await ledger.refund(debit, 'work failed', new Date())).toBe(true);
                    model.refunded(debit.entryId);
                  }
                } else {
                  expect(outcome.ok).toBe(false);
                  const error = (outcome as { error: unknown }).error;
                  expect(error).toBeInstanceOf(InsufficientPointsError);
                  expect((error as InsufficientPointsError).details).toEqual({ balance: model.balance, cost: s.cost });
                  model.refusedRequestIds.push(requestId);
                }
                break;
              }
              case 'refund': {
                if (model.debits.length === 0) break;
                const debit = model.debits[s.target % model.debits.length]!;
                const wasRefunded = model.charges.get(debit.entryId)!.refunded;
                const attempts = Array.from(
                  { length: s.times },
                  () => () => ledger.refund(debit, 'duplicate', new Date()),
                );
                const outcomes = s.concurrent
                  ? await Promise.all(attempts.map((a) => a()))
                  : await attempts.reduce<Promise<boolean[]>>(
                      async (done, a) => [...(await done), await a()],
                      Promise.resolve([]),
                    );
                expect(outcomes.filter(Boolean)).toHaveLength(wasRefunded ? 0 : 1);
                if (!wasRefunded) model.refunded(debit.entryId);
                break;
              }
              case 'credit': {
                const newBalance = await ledger.credit({
                  accountId,
                  points: s.points,
                  note: 'property top-up',
                  now: new Date(),
                });
                model.credited(s.points);
                expect(newBalance).toBe(model.balance);
                break;
              }
              case 'burst': {
                const before = model.balance;
                const requestIds = s.costs.map(() => nextRequestId());
                const outcomes = await Promise.all(s.costs.map((c, i) => settle(debitOnce(c, requestIds[i]!))));
                let spent = 0;
                const refusedCosts: number[] = [];
                outcomes.forEach((o, i) => {
                  if (o.ok) {
                    model.charged(o.value, requestIds[i]!);
                    spent += s.costs[i]!;
                  } else {
                    expect(o.error).toBeInstanceOf(InsufficientPointsError);
                    refusedCosts.push(s.costs[i]!);
                    model.refusedRequestIds.push(requestIds[i]!);
                  }
                });
                expect(spent).toBeLessThanOrEqual(before);
                // Within a burst the balance only falls, so a refused debit cost more than what is left at the end.
                for (const c of refusedCosts) expect(c).toBeGreaterThan(before - spent);
                break;
              }
            }
            const balance = await balanceNow();
            expect(balance).toBeGreaterThanOrEqual(0);
            expect(balance).toBe(model.balance);
          }

          // Assert: the stored records say exactly what the model says.
          const entries = await ledger.entries(accountId);
          const charges = entries.filter((e) => e.kind === 'charge');
          expect(charges.map((c) => c.entryId).sort()).toEqual([...model.charges.keys()].sort());
          for (const c of charges) {
            const expected = model.charges.get(c.entryId)!;
            expect({ status: c.status, points: c.points, requestId: c.requestId }).toEqual({
              status: expected.refunded ? 'refunded' : 'charged',
              points: expected.cost,
              requestId: expected.requestId,
            });
            expect(c.refundedAt !== undefined).toBe(expected.refunded);
          }
          const chargedRequestIds = new Set(charges.map((c) => c.requestId));
          for (const refused of model.refusedRequestIds) expect(chargedRequestIds.has(refused)).toBe(false);
          const credits = entries.filter((e) => e.kind === 'credit');
          expect(credits.reduce((sum, e) => sum + e.points, 0)).toBe(start + model.credits);

          expect(model.balance).toBe(model.explained());
          expect(ledgerBalance(entries)).toBe(model.balance);
          const audit = await auditAccount(stack.deps, accountId);
          expect(audit).toMatchObject({
            balance: model.balance,
            explained: model.balance,
            consistent: true,
            duplicateCharges: 0,
          });
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('DynamoDbUsageLedger across processes (each instance its own client, as separate Lambda instances)', () => {
  it("concurrent debits from 4 ledgers and credits meanwhile: each record's balanceAfter is exact, no balance claimed twice", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 4, maxLength: 24 }),
        fc.integer({ min: 0, max: 50 }),
        async (costs, topUp) => {
          const { accountId } = await stack.openAccount({ points: 200 });
          const ledgers = Array.from({ length: 4 }, () => {
            const { doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: testDynamoDbEndpoint() });
            return new DynamoDbUsageLedger(doc, {
              accounts: stack.config.tables.accounts,
              usage: stack.config.tables.usage,
            });
          });

          const outcomes = await Promise.all([
            ...costs.map((cost, i) =>
              settle(
                ledgers[i % 4]!.debit({
                  accountId,
                  keyId: 'key_x',
                  cost,
                  units: 1,
                  operation: 'cas',
                  requestId: `r${i}`,
                  now: new Date(),
                }),
              ),
            ),
            ...(topUp
              ? [settle(ledgers[0]!.credit({ accountId, points: topUp, note: 'meanwhile', now: new Date() }))]
              : []),
          ]);

          for (const outcome of outcomes)
            if (!outcome.ok) expect((outcome as { error: unknown }).error).toBeInstanceOf(InsufficientPointsError);
          const entries = await stack.deps.ledger.entries(accountId);
          const charges = entries.filter((e) => e.kind === 'charge');
          expect(charges.every((c) => c.keyId === 'key_x' && c.balanceAfter! >= 0)).toBe(true);
          const balance = (await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points;
          const spent = charges.reduce((sum, c) => sum + c.points, 0);
          expect(balance).toBe(200 + (topUp && outcomes.at(-1)!.ok ? topUp : 0) - spent);
          // Without a credit, the balances the charges left, in order, chain from the opening balance: no two
          // charges can claim the same balance.
          if (!topUp) {
            let expected = 200;
            for (const c of [...charges].sort((a, b) => b.balanceAfter! - a.balanceAfter!)) {
              expected -= c.points;
              expect(c.balanceAfter).toBe(expected);
            }
          }
        },
      ),
      { numRuns: 10 },
    );
  });
});

describe('DynamoDbUsageLedger, edges the property does not reach', () => {
  it('a debit of exactly the balance succeeds and leaves zero; one more point is refused', async () => {
    const { accountId } = await stack.openAccount({ points: 30 });

    await stack.deps.ledger.debit({
      accountId,
      cost: 30,
      units: 1,
      operation: 'edge',
      requestId: 'all',
      now: new Date(),
    });
    const refused = await settle(
      stack.deps.ledger.debit({
        accountId,
        cost: 1,
        units: 1,
        operation: 'edge',
        requestId: 'one-more',
        now: new Date(),
      }),
    );

    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(0);
    expect(refused.ok).toBe(false);
    expect((refused as { error: InsufficientPointsError }).error.details).toEqual({ balance: 0, cost: 1 });
  });

  it('a debit against an account that does not exist is AccountNotFoundError and writes nothing', async () => {
    const outcome = await settle(
      stack.deps.ledger.debit({
        accountId: 'acct_missing',
        cost: 1,
        units: 1,
        operation: 'edge',
        requestId: 'x',
        now: new Date(),
      }),
    );

    expect(outcome.ok).toBe(false);
    expect((outcome as { error: unknown }).error).toBeInstanceOf(AccountNotFoundError);
    expect(await stack.deps.ledger.entries('acct_missing')).toEqual([]);
  });

  it('a refund that names the wrong cost gives nothing back, and the true refund still works once', async () => {
    const { accountId } = await stack.openAccount({ points: 50 });
    const debit = await stack.deps.ledger.debit({
      accountId,
      cost: 10,
      units: 1,
      operation: 'edge',
      requestId: 'r',
      now: new Date(),
    });

    const inflated = await stack.deps.ledger.refund({ ...debit, cost: 40 }, 'tampered', new Date());
    const genuine = await stack.deps.ledger.refund(debit, 'failed', new Date());

    expect(inflated).toBe(false);
    expect(genuine).toBe(true);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(50);
  });

  it('a refund of a charge that was never made gives nothing', async () => {
    const { accountId } = await stack.openAccount({ points: 50 });

    const outcome = await stack.deps.ledger.refund(
      { accountId, entryId: '2030-01-01T00:00:00.000Z#made-up', cost: 10 },
      'fake',
      new Date(),
    );

    expect(outcome).toBe(false);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(50);
  });

  it('a credit of zero, a negative or a fraction is refused', async () => {
    const { accountId } = await stack.openAccount({ points: 5 });

    for (const points of [0, -5, 2.5]) {
      await expect(stack.deps.ledger.credit({ accountId, points, note: 'bad', now: new Date() })).rejects.toThrow(
        RangeError,
      );
    }
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(5);
  });

  it('a debit of zero, a negative or a fraction is refused and moves nothing', async () => {
    const { accountId } = await stack.openAccount({ points: 5 });

    for (const cost of [0, -5, 2.5]) {
      await expect(
        stack.deps.ledger.debit({
          accountId,
          cost,
          units: 1,
          operation: 'edge',
          requestId: `bad-${cost}`,
          now: new Date(),
        }),
      ).rejects.toThrow(RangeError);
    }
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(5);
    expect((await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge')).toHaveLength(0);
  });
});
