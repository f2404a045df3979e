/**
 * `npm run admin -- <command>`: accounts, keys and points. Against the tables of a running `npm start` by default;
 * against deployed tables when their names are in the environment (ACCOUNTS_TABLE, API_KEYS_TABLE, USAGE_TABLE,
 * IDEMPOTENCY_TABLE, RATE_LIMITS_TABLE, with ENV_NAME and AWS credentials), e.g. from `cdk deploy`'s outputs.
 */
// Lambda runs Node 22; locally the SDK's notice about an older Node is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/config';
import { buildDependencies } from '../shared/composition/metering';
import { auditAccount, issueApiKey, openAccount } from '../shared/metering/accounts';
import { isTier, TIERS } from '../shared/metering/tiers';
import { resolveEnvironment, targetEnvironment, type EnvironmentSource } from './target-environment';

const HELP = `Usage: npm run admin -- <command> [options]

  create-account --name NAME [--tier professional] [--points 0] [--rate-limit N]
  issue-key      --account ACCOUNT_ID [--label TEXT]        prints the key once
  list-keys      --account ACCOUNT_ID                      prefixes only
  revoke-key     --account ACCOUNT_ID --key-id KEY_ID
  top-up         --account ACCOUNT_ID --points N [--note TEXT]
  set-tier       --account ACCOUNT_ID --tier ${TIERS.join('|')}
  set-rate-limit --account ACCOUNT_ID (--requests N | --default)
  show           --account ACCOUNT_ID [--recent 20]        balance and recent usage
  refund         --account ACCOUNT_ID --entry ENTRY_ID      give back one charge (at most once)
  audit          --account ACCOUNT_ID                      balance against the ledger

Targets the tables of a running \`npm start\`, or deployed tables named in the environment.`;

function positiveInt(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!value || !Number.isSafeInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`--${name} is required (see: npm run admin -- help)`);
  return value;
}

export async function runAdmin(argv: string[], env: EnvironmentSource, print: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') return print(HELP);
  const { values: o } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' }, tier: { type: 'string' }, points: { type: 'string' }, 'rate-limit': { type: 'string' },
      account: { type: 'string' }, label: { type: 'string' }, 'key-id': { type: 'string' }, note: { type: 'string' },
      requests: { type: 'string' }, default: { type: 'boolean' }, recent: { type: 'string' }, entry: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig(resolveEnvironment(env));
  const deps = buildDependencies(config);
  const now = new Date();
  const json = (value: unknown) => print(JSON.stringify(value, null, 2));
  const tierOf = (value: string | undefined) => {
    if (!isTier(value)) throw new Error(`--tier must be one of ${TIERS.join(', ')}`);
    return value;
  };

  switch (command) {
    case 'create-account': {
      const account = await openAccount(deps, {
        name: required(o.name, 'name'),
        tier: tierOf(o.tier ?? 'professional'),
        points: o.points === undefined || o.points === '0' ? 0 : positiveInt(o.points, 'points'),
        rateLimit: o['rate-limit'] ? positiveInt(o['rate-limit'], 'rate-limit') : undefined,
        now,
      });
      return json(account);
    }
    case 'issue-key': {
      const key = await issueApiKey(deps.accounts, { accountId: required(o.account, 'account'), envName: config.envName, label: o.label, now });
      json(key);
      return print('Store the key now: it is not kept and cannot be shown again.');
    }
    case 'list-keys': {
      const keys = await deps.accounts.listApiKeys(required(o.account, 'account'));
      return json(keys.map(({ keyId, prefix, label, createdAt, revokedAt }) => ({ keyId, prefix, label, createdAt, revokedAt })));
    }
    case 'revoke-key': {
      const revoked = await deps.accounts.revokeApiKey(required(o.account, 'account'), required(o['key-id'], 'key-id'), now);
      if (!revoked) throw new Error('no such active key on that account');
      return print('revoked');
    }
    case 'top-up': {
      const accountId = required(o.account, 'account');
      const points = positiveInt(o.points, 'points');
      if (!(await deps.accounts.getAccount(accountId))) throw new Error(`no account ${accountId}`);
      const balance = await deps.ledger.credit({ accountId, points, note: o.note ?? 'top-up', now });
      return json({ balance });
    }
    case 'set-tier':
      await deps.accounts.setTier(required(o.account, 'account'), tierOf(o.tier));
      return print('ok');
    case 'set-rate-limit':
      await deps.accounts.setRateLimit(required(o.account, 'account'), o.default ? undefined : positiveInt(o.requests, 'requests'));
      return print('ok');
    case 'show': {
      const accountId = required(o.account, 'account');
      const account = await deps.accounts.getAccount(accountId, { consistent: true });
      if (!account) throw new Error(`no account ${accountId}`);
      const recent = await deps.ledger.entries(accountId, { limit: o.recent ? positiveInt(o.recent, 'recent') : 20, newestFirst: true });
      return json({ account, recent });
    }
    case 'refund': {
      const accountId = required(o.account, 'account');
      const entryId = required(o.entry, 'entry');
      const entry = (await deps.ledger.entries(accountId)).find((e) => e.entryId === entryId);
      if (!entry || entry.kind !== 'charge') throw new Error('no such charge on that account');
      const refunded = await deps.ledger.refund({ accountId, entryId, cost: entry.points }, 'manual refund', now);
      return print(refunded ? 'refunded' : 'already refunded');
    }
    case 'audit':
      return json(await auditAccount(deps, required(o.account, 'account')));
    default:
      throw new Error(`unknown command "${command}"\n\n${HELP}`);
  }
}

if (require.main === module) {
  (async () => {
    try {
      await runAdmin(process.argv.slice(2), () => targetEnvironment(), (line) => console.log(line));
    } catch (error) {
      console.error(`error: ${(error as Error).message}`);
      process.exit(1);
    }
  })();
}
