/**
 * The admin CLI's account commands in-process against DynamoDB Local: list and find (by key prefix too), usage per
 * key and period as a table and CSV, negative adjustments, suspend and resume, key rotation; each recorded in the
 * account's ledger.
 */
import { hashApiKey } from '../../shared/metering/api-keys';
import { runAdminOn } from '../support/admin-runner';
import { createTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await createTestStack();
});

const admin = (...argv: string[]): Promise<string> => runAdminOn(stack, argv);

const debit = (accountId: string, keyId: string, cost: number, at: string, operation = 'batch-screen') =>
  stack.deps.ledger.debit({
    accountId,
    keyId,
    cost,
    units: cost,
    operation,
    requestId: `req-${Math.random().toString(36).slice(2)}`,
    now: new Date(at),
  });

describe('finding accounts', () => {
  it('list-accounts shows every account as a table, find-account finds one by a key prefix or by name', async () => {
    const a = await stack.openAccount({ points: 10 });
    const b = await stack.openAccount({ points: 20 });
    const keyB = (await stack.deps.accounts.listApiKeys(b.accountId))[0]!;

    const listing = await admin('list-accounts');
    const byPrefix = JSON.parse(await admin('find-account', '--prefix', keyB.prefix, '--format', 'json'));
    const csv = await admin('find-account', '--name', a.accountId, '--format', 'csv');

    expect(listing.split('\n')[0]).toMatch(/^accountId\s+name\s+tier\s+points\s+suspended\s+createdAt$/);
    expect(listing).toContain(a.accountId);
    expect(listing).toContain(b.accountId);
    expect(byPrefix.map((r: { accountId: string }) => r.accountId)).toEqual([b.accountId]);
    expect(csv.split('\n')).toEqual([
      'accountId,name,tier,points,suspended,createdAt',
      expect.stringMatching(new RegExp(`^${a.accountId},test account,professional,10,,`)),
    ]);
  });

  it('find-account needs a prefix or a name', async () => {
    await expect(admin('find-account')).rejects.toThrow('--prefix or --name is required');
  });
});

describe('usage per key and period', () => {
  it('totals charges per day, key and operation within the period, as a table or CSV', async () => {
    const { accountId, keyId } = await stack.openAccount({ points: 1000 });
    await debit(accountId, keyId, 3, '2026-03-01T10:00:00Z');
    await debit(accountId, keyId, 4, '2026-03-01T11:00:00Z');
    await debit(accountId, 'key_other', 5, '2026-03-02T09:00:00Z', 'image-search');
    await debit(accountId, keyId, 100, '2026-04-15T09:00:00Z');

    const csv = await admin(
      'usage',
      '--account',
      accountId,
      '--from',
      '2026-03-01',
      '--to',
      '2026-03-31',
      '--format',
      'csv',
    );
    const table = await admin(
      'usage',
      '--account',
      accountId,
      '--from',
      '2026-03-01',
      '--to',
      '2026-03-31',
      '--key-id',
      keyId,
    );

    expect(csv.split('\n')).toEqual([
      'day,keyId,operation,requests,points,units,refunded',
      '2026-03-02,key_other,image-search,1,5,5,0',
      `2026-03-01,${keyId},batch-screen,2,7,7,0`,
    ]);
    expect(table.split('\n')).toHaveLength(3);
    expect(table).toMatch(new RegExp(`2026-03-01\\s+${keyId}\\s+batch-screen\\s+2\\s+7\\s+7\\s+0`));
  });
});

describe('changes an operator makes, each on the ledger', () => {
  it('adjust takes points off with the reason recorded, and never below zero', async () => {
    const { accountId } = await stack.openAccount({ points: 50 });

    expect(
      JSON.parse(await admin('adjust', '--account', accountId, '--points', '20', '--reason', 'duplicate top-up')),
    ).toEqual({ balance: 30 });
    await expect(admin('adjust', '--account', accountId, '--points', '31', '--reason', 'too much')).rejects.toThrow(
      /balance is 30/,
    );
    await expect(admin('adjust', '--account', accountId, '--points', '5')).rejects.toThrow(/reason is required/);

    const entries = await stack.deps.ledger.entries(accountId);
    expect(entries.filter((e) => e.kind === 'adjustment').map((e) => [e.points, e.note])).toEqual([
      [20, 'duplicate top-up'],
    ]);
    expect(JSON.parse(await admin('audit', '--account', accountId))).toMatchObject({
      balance: 30,
      explained: 30,
      consistent: true,
    });
  });

  it('suspend and resume change the account and its keys together, with events on the ledger', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 5 });

    expect(await admin('suspend', '--account', accountId, '--reason', 'chargeback')).toBe('suspended');
    expect((await stack.deps.accounts.findApiKey(hashApiKey(apiKey)))!.suspendedAt).toBeDefined();
    await expect(admin('suspend', '--account', accountId, '--reason', 'again')).rejects.toThrow(/already suspended/);
    expect(await admin('list-accounts', '--format', 'csv')).toMatch(new RegExp(`${accountId},[^\\n]*,yes,`));
    expect(await admin('resume', '--account', accountId, '--reason', 'paid')).toBe('resumed');
    expect((await stack.deps.accounts.findApiKey(hashApiKey(apiKey)))!.suspendedAt).toBeUndefined();

    const events = (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'event');
    expect(events.map((e) => [e.operation, e.note, e.points])).toEqual([
      ['suspend', 'chargeback', 0],
      ['resume', 'paid', 0],
    ]);
  });

  it('rotate-key issues a new key and sets the old one to expire after the grace period, recorded', async () => {
    const { accountId, apiKey, keyId } = await stack.openAccount();
    const before = Date.now();

    const output = await admin('rotate-key', '--account', accountId, '--key-id', keyId, '--grace', '2h');

    const printed = JSON.parse(output.slice(0, output.lastIndexOf('}') + 1));
    expect(printed.apiKey).toMatch(/^tmk_test_[0-9A-Za-z]{32}$/);
    expect(printed.replaces.keyId).toBe(keyId);
    const old = await stack.deps.accounts.findApiKey(hashApiKey(apiKey));
    expect(Date.parse(old!.expiresAt!) - before).toBeGreaterThanOrEqual(2 * 3600_000 - 1000);
    expect(Date.parse(old!.expiresAt!) - before).toBeLessThan(2 * 3600_000 + 60_000);
    expect(await stack.deps.accounts.findApiKey(hashApiKey(printed.apiKey))).toMatchObject({
      accountId,
      tier: 'professional',
    });
    const [event] = (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'event');
    expect(event).toMatchObject({ operation: 'rotate-key', keyId });
    expect(event!.note).toContain(printed.keyId);
    await expect(admin('rotate-key', '--account', accountId, '--key-id', keyId, '--grace', '40d')).rejects.toThrow(
      /at most 30 days/,
    );
  });

  it("allowlist sets, shows and clears an account's own brands", async () => {
    const { accountId } = await stack.openAccount();
    expect(JSON.parse(await admin('allowlist', '--account', accountId, '--set', 'Anker, Soundcore,anker'))).toEqual([
      'Anker',
      'Soundcore',
    ]);
    expect(JSON.parse(await admin('allowlist', '--account', accountId))).toEqual(['Anker', 'Soundcore']);
    await expect(admin('allowlist', '--account', accountId, '--set', '™')).rejects.toThrow(/letter or a digit/);
    expect(JSON.parse(await admin('allowlist', '--account', accountId, '--clear'))).toEqual([]);
  });
});
