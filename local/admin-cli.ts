/**
 * `npm run admin -- <command>`: accounts, keys and points. Against the tables of a running `npm start` by default;
 * against deployed tables when their names are in the environment (ACCOUNTS_TABLE, API_KEYS_TABLE, USAGE_TABLE,
 * IDEMPOTENCY_TABLE, RATE_LIMITS_TABLE, with ENV_NAME and AWS credentials), e.g. from `cdk deploy`'s outputs.
 */
// Lambda runs Node 22; locally the SDK's notice about an older Node is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/config';
import { buildDependencies } from '../shared/composition/metering';
import { auditAccount, issueApiKey, openAccount } from '../shared/metering/accounts';
import { isTier, TIERS, type Tier } from '../shared/metering/tiers';
import {
  adjustDown,
  findAccounts,
  formatRows,
  parseGrace,
  resumeAccount,
  rotateApiKey,
  suspendAccount,
  usageByKeyAndDay,
} from '../shared/metering/account-admin';
import { buildAllowlistStore } from '../shared/composition/allowlist';
import { buildFeedbackStore } from '../shared/composition/feedback';
import { exportFeedback } from '../shared/feedback/feedback-export';
import { putAllowlistRequestSchema, distinctBrands } from '../functions/put-allowlist/schema';
import { issuesOf } from '../shared/http/validate-input';
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
  list-accounts  [--format table|csv|json]
  find-account   (--prefix KEY_PREFIX | --name TEXT)        by a key's display prefix, or id/name text
  usage          --account ACCOUNT_ID [--key-id KEY_ID] [--from DATE] [--to DATE] [--format table|csv]
                                                           charges per day, key and operation (default: 30 days)
  adjust         --account ACCOUNT_ID --points N --reason TEXT   takes N points off (never below zero)
  suspend        --account ACCOUNT_ID --reason TEXT        its keys are refused (403 account_suspended)
  resume         --account ACCOUNT_ID --reason TEXT
  rotate-key     --account ACCOUNT_ID --key-id KEY_ID [--grace 24h]   new key; the old one works for the grace
  allowlist      --account ACCOUNT_ID [--set "Brand A,Brand B" | --clear]   the account's own brands
  feedback export --out FILE [--since DATE]                sellers' reports as labelled examples (JSON lines)
                                                           for npm run train:screen -- --feedback FILE

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

function formatOf(value: string | undefined): 'table' | 'csv' {
  if (value === undefined || value === 'table' || value === 'csv') return value ?? 'table';
  throw new Error('--format must be table or csv');
}

/** A date (YYYY-MM-DD, UTC; as --to it includes that whole day) or an ISO 8601 instant. */
function dateOf(value: string, name: string, endOfDay: boolean): Date {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = new Date(bare ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(at.getTime())) throw new Error(`--${name} must be a date (YYYY-MM-DD) or an ISO 8601 instant`);
  return bare && endOfDay ? new Date(at.getTime() + 86_400_000) : at;
}

const OPTIONS = {
  name: { type: 'string' },
  tier: { type: 'string' },
  points: { type: 'string' },
  'rate-limit': { type: 'string' },
  account: { type: 'string' },
  label: { type: 'string' },
  'key-id': { type: 'string' },
  note: { type: 'string' },
  requests: { type: 'string' },
  default: { type: 'boolean' },
  recent: { type: 'string' },
  entry: { type: 'string' },
  format: { type: 'string' },
  prefix: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  reason: { type: 'string' },
  grace: { type: 'string' },
  set: { type: 'string' },
  clear: { type: 'boolean' },
  out: { type: 'string' },
  since: { type: 'string' },
} as const;

function parseOptions(args: string[]) {
  return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
}

function tierOf(value: string | undefined): Tier {
  if (!isTier(value)) throw new Error(`--tier must be one of ${TIERS.join(', ')}`);
  return value;
}

/** What every command gets: its options, the tables to act on, the time of the call and where to print. */
interface CommandContext {
  command: string;
  o: ReturnType<typeof parseOptions>['values'];
  /** Words after the command (`feedback export`); only commands that take them accept any. */
  words: string[];
  config: ReturnType<typeof loadConfig>;
  deps: ReturnType<typeof buildDependencies>;
  now: Date;
  print: (line: string) => void;
  json: (value: unknown) => void;
}

type Command = (c: CommandContext) => Promise<void> | void;

async function listOrFindAccounts({ command, o, deps, print, json }: CommandContext): Promise<void> {
  if (command === 'find-account' && !o.prefix && !o.name) throw new Error('--prefix or --name is required');
  const accounts = await findAccounts(deps, { keyPrefix: o.prefix, text: o.name });
  const rows = accounts.map((a) => ({
    accountId: a.accountId,
    name: a.name,
    tier: a.tier,
    points: a.points,
    suspended: a.suspendedAt ? 'yes' : '',
    createdAt: a.createdAt,
  }));
  if ((o.format ?? 'table') === 'json') return json(rows);
  return print(formatRows(rows, ['accountId', 'name', 'tier', 'points', 'suspended', 'createdAt'], formatOf(o.format)));
}

/** One entry per command, in the order of the help text. */
const COMMANDS: Record<string, Command> = {
  'create-account': async ({ o, deps, now, json }) => {
    const account = await openAccount(deps, {
      name: required(o.name, 'name'),
      tier: tierOf(o.tier ?? 'professional'),
      points: o.points === undefined || o.points === '0' ? 0 : positiveInt(o.points, 'points'),
      rateLimit: o['rate-limit'] ? positiveInt(o['rate-limit'], 'rate-limit') : undefined,
      now,
    });
    return json(account);
  },
  'issue-key': async ({ o, config, deps, now, print, json }) => {
    const key = await issueApiKey(deps.accounts, {
      accountId: required(o.account, 'account'),
      envName: config.envName,
      label: o.label,
      now,
    });
    json(key);
    return print('Store the key now: it is not kept and cannot be shown again.');
  },
  'list-keys': async ({ o, deps, json }) => {
    const keys = await deps.accounts.listApiKeys(required(o.account, 'account'));
    return json(
      keys.map(({ keyId, prefix, label, createdAt, revokedAt }) => ({ keyId, prefix, label, createdAt, revokedAt })),
    );
  },
  'revoke-key': async ({ o, deps, now, print }) => {
    const revoked = await deps.accounts.revokeApiKey(
      required(o.account, 'account'),
      required(o['key-id'], 'key-id'),
      now,
    );
    if (!revoked) throw new Error('no such active key on that account');
    return print('revoked');
  },
  'top-up': async ({ o, deps, now, json }) => {
    const accountId = required(o.account, 'account');
    const points = positiveInt(o.points, 'points');
    if (!(await deps.accounts.getAccount(accountId))) throw new Error(`no account ${accountId}`);
    const balance = await deps.ledger.credit({ accountId, points, note: o.note ?? 'top-up', now });
    return json({ balance });
  },
  'set-tier': async ({ o, deps, print }) => {
    await deps.accounts.setTier(required(o.account, 'account'), tierOf(o.tier));
    return print('ok');
  },
  'set-rate-limit': async ({ o, deps, print }) => {
    await deps.accounts.setRateLimit(
      required(o.account, 'account'),
      o.default ? undefined : positiveInt(o.requests, 'requests'),
    );
    return print('ok');
  },
  show: async ({ o, deps, json }) => {
    const accountId = required(o.account, 'account');
    const account = await deps.accounts.getAccount(accountId, { consistent: true });
    if (!account) throw new Error(`no account ${accountId}`);
    const recent = await deps.ledger.entries(accountId, {
      limit: o.recent ? positiveInt(o.recent, 'recent') : 20,
      newestFirst: true,
    });
    return json({ account, recent });
  },
  refund: async ({ o, deps, now, print }) => {
    const accountId = required(o.account, 'account');
    const entryId = required(o.entry, 'entry');
    const entry = (await deps.ledger.entries(accountId)).find((e) => e.entryId === entryId);
    if (entry?.kind !== 'charge') throw new Error('no such charge on that account');
    const refunded = await deps.ledger.refund({ accountId, entryId, cost: entry.points }, 'manual refund', now);
    return print(refunded ? 'refunded' : 'already refunded');
  },
  audit: async ({ o, deps, json }) => {
    return json(await auditAccount(deps, required(o.account, 'account')));
  },
  'list-accounts': listOrFindAccounts,
  'find-account': listOrFindAccounts,
  usage: async ({ o, deps, now, print }) => {
    const to = o.to ? dateOf(o.to, 'to', true) : now;
    const from = o.from ? dateOf(o.from, 'from', false) : new Date(to.getTime() - 30 * 86_400_000);
    if (from >= to) throw new Error('--from must be before --to');
    const rows = await usageByKeyAndDay(deps, required(o.account, 'account'), {
      from,
      to,
      ...(o['key-id'] ? { keyId: o['key-id'] } : {}),
    });
    return print(
      formatRows(
        rows as unknown as Record<string, unknown>[],
        ['day', 'keyId', 'operation', 'requests', 'points', 'units', 'refunded'],
        formatOf(o.format),
      ),
    );
  },
  adjust: async ({ o, deps, now, json }) => {
    const balance = await adjustDown(deps, {
      accountId: required(o.account, 'account'),
      points: positiveInt(o.points, 'points'),
      reason: o.reason,
      now,
    });
    return json({ balance });
  },
  suspend: async ({ o, deps, now, print }) => {
    await suspendAccount(deps, { accountId: required(o.account, 'account'), reason: o.reason, now });
    return print('suspended');
  },
  resume: async ({ o, deps, now, print }) => {
    await resumeAccount(deps, { accountId: required(o.account, 'account'), reason: o.reason, now });
    return print('resumed');
  },
  'rotate-key': async ({ o, config, deps, now, print, json }) => {
    const graceMs = parseGrace(o.grace ?? '24h');
    const rotated = await rotateApiKey(deps, {
      accountId: required(o.account, 'account'),
      keyId: required(o['key-id'], 'key-id'),
      graceMs,
      envName: config.envName,
      now,
    });
    json({ ...rotated.issued, replaces: rotated.oldKey, oldKeyValidUntil: rotated.oldKeyExpiresAt });
    return print('Store the new key now: it is not kept and cannot be shown again.');
  },
  allowlist: async ({ o, config, deps, now, json }) => {
    const accountId = required(o.account, 'account');
    if (!(await deps.accounts.getAccount(accountId))) throw new Error(`no account ${accountId}`);
    const store = buildAllowlistStore(config);
    if (o.set === undefined && !o.clear) return json((await store.get(accountId))?.brands ?? []);
    const parsed = putAllowlistRequestSchema.safeParse({
      brands: o.clear ? [] : o.set!.split(',').filter((b) => b.trim() !== ''),
    });
    if (!parsed.success)
      throw new Error(
        issuesOf(parsed.error)
          .map((i) => `${i.field}: ${i.message}`)
          .join('; '),
      );
    const saved = await store.put(accountId, distinctBrands(parsed.data.brands), now);
    await deps.ledger.recordEvent({
      accountId,
      operation: 'allowlist',
      note: `allowlist set to ${saved.brands.length} brands`,
      now,
    });
    return json(saved.brands);
  },
  feedback: async ({ words, o, config, now, json }) => {
    if (words.join(' ') !== 'export') throw new Error('usage: feedback export --out FILE [--since DATE]');
    const out = required(o.out, 'out');
    const since = o.since ? dateOf(o.since, 'since', false) : undefined;
    if (since && since > now) throw new Error('--since must not be in the future');
    const exported = await exportFeedback(buildFeedbackStore(config).all(since ? { since } : {}));
    writeFileSync(out, exported.lines.map((line) => `${line}\n`).join(''));
    return json({ out, examples: exported.lines.length, exported: exported.exported, skipped: exported.skipped });
  },
};

/** The commands that take words after their name. */
const TAKES_WORDS = new Set(['feedback']);

/** Parses the options, connects to the tables and runs the command named first. */
export async function runAdmin(argv: string[], env: EnvironmentSource, print: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') return print(HELP);
  const { values: o, positionals: words } = parseOptions(rest);
  if (words.length > 0 && !TAKES_WORDS.has(command)) throw new Error(`unexpected argument "${words[0]}"`);
  const config = loadConfig(resolveEnvironment(env));
  const deps = buildDependencies(config);
  const json = (value: unknown) => print(JSON.stringify(value, null, 2));
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) throw new Error(`unknown command "${command}"\n\n${HELP}`);
  return run({ command, o, words, config, deps, now: new Date(), print, json });
}

if (require.main === module) {
  (async () => {
    try {
      await runAdmin(
        process.argv.slice(2),
        () => targetEnvironment(),
        (line) => console.log(line),
      );
    } catch (error) {
      console.error(`error: ${(error as Error).message}`);
      process.exit(1);
    }
  })();
}
