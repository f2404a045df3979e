/**
 * The money headers against the ledger, over real HTTP and DynamoDB Local: random bursts of concurrent calls of one
 * account (random costs, some failing after the debit, some refused for want of points). Whatever the interleaving:
 *   - a 200's X-Points-Balance is the balanceAfter of its own usage record (found by its X-Request-Id), which also
 *     holds the key id and the cost the header states;
 *   - a call that failed after its debit has its record refunded and carries no points headers;
 *   - without failures, the balances reported form one chain from the opening balance: sorted, each is the one
 *     before minus its own cost (no two calls can claim the same balance);
 *   - the account's balance is the opening balance minus the charges that stand (the audit).
 */
import fc from 'fast-check';
import type { RunningServer } from '../../local/server';
import { auditAccount } from '../../shared/metering/accounts';
import type { LedgerEntry } from '../../shared/ports';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, startTestServer } from '../support/test-server';

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  server = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
});
afterAll(async () => server?.close());

interface Call {
  points: number;
  fail: boolean;
}

async function burst(calls: readonly Call[], opening: number) {
  const { accountId, apiKey, keyId } = await stack.openAccount({ points: opening });
  const responses = await Promise.all(
    calls.map(async (call) => {
      const response = await post(
        `${server.url}/v1/test-charge`,
        { points: call.points, fail: call.fail ? 'unavailable' : 'none' },
        { Authorization: `Bearer ${apiKey}` },
      );
      await response.arrayBuffer();
      return { call, response };
    }),
  );
  const records = new Map<string, LedgerEntry>();
  for (const entry of await stack.deps.ledger.entries(accountId))
    if (entry.kind === 'charge') records.set(entry.requestId, entry);
  return { accountId, keyId, responses, records };
}

const call = fc.record({ points: fc.integer({ min: 1, max: 25 }), fail: fc.boolean() });

describe('X-Points-Cost and X-Points-Balance agree with the ledger under concurrency', () => {
  it('each answer names its own record; failed calls are refunded; the audit holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(call, { minLength: 2, maxLength: 30 }),
        fc.integer({ min: 10, max: 300 }),
        async (calls, opening) => {
          const { accountId, keyId, responses, records } = await burst(calls, opening);

          for (const { call, response } of responses) {
            const record = records.get(response.headers.get('x-request-id')!);
            if (response.status === 200) {
              expect(record).toMatchObject({ status: 'charged', points: call.points, keyId });
              expect(response.headers.get('x-points-cost')).toBe(String(call.points));
              expect(response.headers.get('x-points-balance')).toBe(String(record!.balanceAfter));
            } else if (response.status === 503) {
              expect(call.fail).toBe(true);
              expect(record).toMatchObject({ status: 'refunded', keyId });
              expect(response.headers.get('x-points-balance')).toBeNull();
            } else {
              expect(response.status).toBe(402);
              expect(record).toBeUndefined();
            }
          }
          expect((await auditAccount(stack.deps, accountId)).consistent).toBe(true);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('without failures the reported balances form one chain down from the opening balance', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 2, maxLength: 40 }),
        fc.integer({ min: 10, max: 400 }),
        async (costs, opening) => {
          const { accountId, responses } = await burst(
            costs.map((points) => ({ points, fail: false })),
            opening,
          );

          const charged = responses
            .filter(({ response }) => response.status === 200)
            .map(({ call, response }) => ({
              cost: call.points,
              balance: Number(response.headers.get('x-points-balance')),
            }))
            .sort((a, b) => b.balance - a.balance);
          let expected = opening;
          for (const { cost, balance } of charged) {
            expected -= cost;
            expect(balance).toBe(expected);
          }
          expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(expected);
          // A refused call was refused for want of points at the moment it tried: more than what was left at the end.
          for (const { call, response } of responses)
            if (response.status === 402) expect(call.points).toBeGreaterThan(expected);
        },
      ),
      { numRuns: 12 },
    );
  });
});
