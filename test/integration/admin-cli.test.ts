/**
 * The admin CLI (`npm run admin -- ...`) run in-process against a private set of tables on DynamoDB Local.
 */
import { runAdmin } from '../../local/admin-cli';
import { runIngestCli } from '../../local/ingest-cli';
import { hashApiKey } from '../../shared/metering/api-keys';
import { runAdminOn } from '../support/admin-runner';
import { createTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await createTestStack();
});

/** Runs one admin command and returns what it printed. */
const admin = (...argv: string[]): Promise<string> => runAdminOn(stack, argv);

/** The JSON a command printed first (issue-key prints a reminder after it). */
function firstJson<T>(output: string): T {
  const end = output.lastIndexOf('}');
  return JSON.parse(output.slice(0, end + 1)) as T;
}

async function createAccount(...extra: string[]): Promise<string> {
  return firstJson<{ accountId: string }>(await admin('create-account', '--name', 'Acme Trading', ...extra)).accountId;
}

describe('accounts', () => {
  it('create-account opens an account with its tier and an opening balance on the ledger', async () => {
    const output = await admin(
      'create-account',
      '--name',
      'Acme Trading',
      '--tier',
      'basic',
      '--points',
      '250',
      '--rate-limit',
      '12',
    );

    const printed = firstJson<{ accountId: string; name: string; tier: string; points: number; rateLimit: number }>(
      output,
    );
    expect(printed).toMatchObject({ name: 'Acme Trading', tier: 'basic', points: 250, rateLimit: 12 });
    expect(printed.accountId).toMatch(/^acct_[0-9A-Za-z]{16}$/);
    const stored = await stack.deps.accounts.getAccount(printed.accountId, { consistent: true });
    expect(stored).toMatchObject({ name: 'Acme Trading', tier: 'basic', points: 250, rateLimit: 12 });
    const entries = await stack.deps.ledger.entries(printed.accountId);
    expect(entries.map((e) => [e.kind, e.points, e.note])).toEqual([['credit', 250, 'opening balance']]);
  });

  it('create-account defaults to professional with no points and no ledger record', async () => {
    const accountId = await createAccount();

    expect(await stack.deps.accounts.getAccount(accountId, { consistent: true })).toMatchObject({
      tier: 'professional',
      points: 0,
    });
    expect(await stack.deps.ledger.entries(accountId)).toEqual([]);
  });

  it('top-up adds points with a record and prints the new balance', async () => {
    const accountId = await createAccount('--points', '100');

    const output = await admin('top-up', '--account', accountId, '--points', '40', '--note', 'invoice 7');

    expect(JSON.parse(output)).toEqual({ balance: 140 });
    const credits = (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'credit');
    expect(credits.map((e) => [e.points, e.note]).sort()).toEqual([
      [100, 'opening balance'],
      [40, 'invoice 7'],
    ]);
  });

  it('set-tier changes the tier', async () => {
    const accountId = await createAccount('--tier', 'free');

    expect(await admin('set-tier', '--account', accountId, '--tier', 'enterprise')).toBe('ok');

    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.tier).toBe('enterprise');
  });

  it('set-rate-limit sets an account limit, and --default removes it', async () => {
    const accountId = await createAccount();

    expect(await admin('set-rate-limit', '--account', accountId, '--requests', '7')).toBe('ok');
    const limited = await stack.deps.accounts.getAccount(accountId, { consistent: true });
    expect(await admin('set-rate-limit', '--account', accountId, '--default')).toBe('ok');
    const reset = await stack.deps.accounts.getAccount(accountId, { consistent: true });

    expect(limited!.rateLimit).toBe(7);
    expect(reset).not.toHaveProperty('rateLimit');
  });

  it('show prints the balance and the recent usage, newest first', async () => {
    const accountId = await createAccount('--points', '60');
    const t = Date.now();
    await stack.deps.ledger.debit({
      accountId,
      cost: 5,
      units: 5,
      operation: 'batch-screen',
      requestId: 'req-older',
      now: new Date(t + 1000),
    });
    await stack.deps.ledger.debit({
      accountId,
      cost: 2,
      units: 1,
      operation: 'image-search',
      requestId: 'req-newer',
      now: new Date(t + 2000),
    });

    const shown = JSON.parse(await admin('show', '--account', accountId, '--recent', '2'));

    expect(shown.account).toMatchObject({ accountId, points: 53 });
    expect(shown.recent.map((e: { requestId: string; points: number }) => [e.requestId, e.points])).toEqual([
      ['req-newer', 2],
      ['req-older', 5],
    ]);
  });

  it('refund gives one charge back, and a second refund says it already was', async () => {
    const accountId = await createAccount('--points', '50');
    const debit = await stack.deps.ledger.debit({
      accountId,
      cost: 8,
      units: 1,
      operation: 'batch-screen',
      requestId: 'req-r',
      now: new Date(),
    });

    const first = await admin('refund', '--account', accountId, '--entry', debit.entryId);
    const second = await admin('refund', '--account', accountId, '--entry', debit.entryId);

    expect(first).toBe('refunded');
    expect(second).toBe('already refunded');
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(50);
    const [charge] = (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge');
    expect(charge).toMatchObject({ status: 'refunded', refundReason: 'manual refund' });
  });

  it('refund refuses an entry that is not a charge on that account', async () => {
    const accountId = await createAccount('--points', '50');
    const [credit] = await stack.deps.ledger.entries(accountId);

    await expect(admin('refund', '--account', accountId, '--entry', credit!.entryId)).rejects.toThrow(
      'no such charge on that account',
    );
    await expect(admin('refund', '--account', accountId, '--entry', 'nope')).rejects.toThrow(
      'no such charge on that account',
    );
  });

  it('audit agrees with the ledger after charges, a refund and a top-up', async () => {
    const accountId = await createAccount('--points', '100');
    const now = Date.now();
    await stack.deps.ledger.debit({
      accountId,
      cost: 30,
      units: 1,
      operation: 'op',
      requestId: 'a1',
      now: new Date(now + 1),
    });
    const refunded = await stack.deps.ledger.debit({
      accountId,
      cost: 20,
      units: 1,
      operation: 'op',
      requestId: 'a2',
      now: new Date(now + 2),
    });
    await stack.deps.ledger.refund(refunded, 'failed', new Date());
    await admin('top-up', '--account', accountId, '--points', '5');

    const audit = JSON.parse(await admin('audit', '--account', accountId));

    expect(audit).toEqual({ accountId, balance: 75, explained: 75, consistent: true, duplicateCharges: 0, entries: 4 });
  });
});

describe('keys', () => {
  it('issue-key prints a working key once, with its id and prefix', async () => {
    const accountId = await createAccount();

    const output = await admin('issue-key', '--account', accountId, '--label', 'shop A');

    const issued = firstJson<{ apiKey: string; keyId: string; prefix: string }>(output);
    expect(issued.apiKey).toMatch(/^tmk_test_[0-9A-Za-z]{32}$/);
    expect(issued.prefix).toBe(`${issued.apiKey.slice(0, 'tmk_test_'.length + 4)}…`);
    expect(output).toContain('Store the key now');
    const record = await stack.deps.accounts.findApiKey(hashApiKey(issued.apiKey));
    expect(record).toMatchObject({ accountId, keyId: issued.keyId, prefix: issued.prefix, label: 'shop A' });
    expect(record).not.toHaveProperty('revokedAt');
    expect(JSON.stringify(record)).not.toContain(issued.apiKey);
  });

  it('list-keys shows prefixes only: never a key, its hidden characters or its hash', async () => {
    const accountId = await createAccount();
    const keys = [
      firstJson<{ apiKey: string; keyId: string }>(await admin('issue-key', '--account', accountId)),
      firstJson<{ apiKey: string; keyId: string }>(await admin('issue-key', '--account', accountId)),
    ];

    const output = await admin('list-keys', '--account', accountId);

    const listed = JSON.parse(output) as Record<string, unknown>[];
    expect(listed.map((k) => k.keyId).sort()).toEqual(keys.map((k) => k.keyId).sort());
    for (const row of listed) expect(Object.keys(row).sort()).toEqual(['createdAt', 'keyId', 'prefix']);
    for (const { apiKey } of keys) {
      expect(output).toContain(`${apiKey.slice(0, 13)}…`);
      expect(output).not.toContain(apiKey.slice(9, 14));
      expect(output).not.toContain(hashApiKey(apiKey));
    }
  });

  it('revoke-key revokes the key: findApiKey shows it, list-keys shows when, and a second revoke is refused', async () => {
    const accountId = await createAccount();
    const { apiKey, keyId } = firstJson<{ apiKey: string; keyId: string }>(
      await admin('issue-key', '--account', accountId),
    );

    const output = await admin('revoke-key', '--account', accountId, '--key-id', keyId);

    expect(output).toBe('revoked');
    expect((await stack.deps.accounts.findApiKey(hashApiKey(apiKey)))!.revokedAt).toEqual(expect.any(String));
    const [listed] = JSON.parse(await admin('list-keys', '--account', accountId));
    expect(listed.revokedAt).toEqual(expect.any(String));
    await expect(admin('revoke-key', '--account', accountId, '--key-id', keyId)).rejects.toThrow(
      'no such active key on that account',
    );
  });

  it("a key cannot be revoked through another account's id", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const { apiKey, keyId } = firstJson<{ apiKey: string; keyId: string }>(
      await admin('issue-key', '--account', owner),
    );

    await expect(admin('revoke-key', '--account', other, '--key-id', keyId)).rejects.toThrow(
      'no such active key on that account',
    );

    expect((await stack.deps.accounts.findApiKey(hashApiKey(apiKey)))!.revokedAt).toBeUndefined();
  });

  it('issue-key for an account that does not exist is refused', async () => {
    await expect(admin('issue-key', '--account', 'acct_nobody')).rejects.toThrow('no account acct_nobody');
  });
});

describe('bad input is refused with a clear message', () => {
  it('an unknown command names itself and shows the usage', async () => {
    await expect(admin('frobnicate', '--account', 'a')).rejects.toThrow(
      /unknown command "frobnicate"[\s\S]*Usage: npm run admin/,
    );
  });

  it('help prints the usage', async () => {
    expect(await admin('help')).toContain('create-account --name NAME');
  });

  it('help needs no tables: where they are is not even asked', async () => {
    const lines: string[] = [];
    const noTables = () => {
      throw new Error('No tables to work on');
    };

    await runAdmin(['help'], noTables, (line) => lines.push(line));
    await runIngestCli(['--help'], noTables, (line) => lines.push(line));

    expect(lines.join('\n')).toMatch(/Usage: npm run admin[\s\S]*Usage: npm run ingest/);
    await expect(runAdmin(['list-accounts'], noTables, () => undefined)).rejects.toThrow('No tables to work on');
    await expect(runIngestCli(['tro', 'x.csv'], noTables, () => undefined)).rejects.toThrow('No tables to work on');
  });

  it.each([
    [['top-up', '--account', 'acct_x', '--points=-5'], '--points must be a positive whole number'],
    [['top-up', '--account', 'acct_x', '--points', '0'], '--points must be a positive whole number'],
    [['top-up', '--account', 'acct_x', '--points', '2.5'], '--points must be a positive whole number'],
    [['top-up', '--account', 'acct_x', '--points', 'ten'], '--points must be a positive whole number'],
    [['top-up', '--account', 'acct_x'], '--points must be a positive whole number'],
    [['create-account', '--name', 'X', '--points=-5'], '--points must be a positive whole number'],
    [
      ['create-account', '--name', 'X', '--tier', 'gold'],
      '--tier must be one of free, basic, professional, enterprise',
    ],
    [['create-account', '--tier', 'basic'], '--name is required'],
    [
      ['set-tier', '--account', 'acct_x', '--tier', 'gold'],
      '--tier must be one of free, basic, professional, enterprise',
    ],
    [['set-tier', '--tier', 'basic'], '--account is required'],
    [['top-up', '--points', '5'], '--account is required'],
    [['show'], '--account is required'],
    [['list-keys'], '--account is required'],
    [['audit'], '--account is required'],
    [['refund', '--account', 'acct_x'], '--entry is required'],
    [['revoke-key', '--account', 'acct_x'], '--key-id is required'],
    [['set-rate-limit', '--account', 'acct_x', '--requests=-1'], '--requests must be a positive whole number'],
  ])('%j: %s', async (argv, message) => {
    await expect(admin(...argv)).rejects.toThrow(message);
  });

  it('"--points -5" (a value that looks like an option) is refused, not read as a number', async () => {
    const accountId = await createAccount('--points', '10');

    await expect(admin('top-up', '--account', accountId, '--points', '-5')).rejects.toThrow(
      /'--points' argument is ambiguous/,
    );

    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(10);
  });

  it('an unknown option is refused', async () => {
    await expect(admin('show', '--acount', 'acct_x')).rejects.toThrow(/--acount/);
  });

  it('commands on an account that does not exist say so', async () => {
    await expect(admin('set-tier', '--account', 'acct_ghost', '--tier', 'basic')).rejects.toThrow(
      'no account acct_ghost',
    );
    await expect(admin('show', '--account', 'acct_ghost')).rejects.toThrow('no account acct_ghost');
    await expect(admin('audit', '--account', 'acct_ghost')).rejects.toThrow('no account acct_ghost');
  });

  it('a top-up of an account that does not exist creates nothing', async () => {
    await expect(admin('top-up', '--account', 'acct_ghost2', '--points', '5')).rejects.toThrow();

    expect(await stack.deps.accounts.getAccount('acct_ghost2', { consistent: true })).toBeUndefined();
    expect(await stack.deps.ledger.entries('acct_ghost2')).toEqual([]);
  });

  // The ledger's AccountNotFoundError reaches the operator as the API's client message ("This API key is not
  // valid: it is unknown or has been revoked..."), though top-up involves no key at all.
  it('a top-up of an account that does not exist names the account, like the other commands', async () => {
    await expect(admin('top-up', '--account', 'acct_ghost3', '--points', '5')).rejects.toThrow(
      'no account acct_ghost3',
    );
  });
});
