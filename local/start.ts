/**
 * `npm start`: the API on http://127.0.0.1:3000 (PORT to change it) over DynamoDB Local, with a demo account
 * (professional tier, 10,000 points) whose key is printed with ready-to-paste curl lines. Ctrl-C stops everything.
 */
// Lambda runs Node 22; locally the SDK's notice about an older Node is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JavaMissingError } from './dynamodb-local';
import { startLocalService, type LocalService } from './local-service';
import { RUNTIME_FILE, STATE_DIR } from './runtime-file';
import { sampleCoverage, WELL_KNOWN_NAMES } from './sample-coverage';

const TABLE_PREFIX = 'tmk-local';
const LOGO_INDEX_DIR = path.join(STATE_DIR, 'indexes');

function portFromEnv(): number {
  const raw = process.env.PORT ?? '3000';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a whole number from 0 (any free port) to 65535; got "${raw}".`);
    process.exit(2);
  }
  return port;
}

/**
 * What the sample lacks, said plainly: a 低 for a brand it does not hold means "absent", not "safe". The whole list
 * goes beside the runtime file.
 */
async function sampleCoverageOf(): Promise<string> {
  const { buildDataStores } = await import('../shared/composition/data-stores');
  const { loadConfig } = await import('../shared/config');
  const stores = buildDataStores(loadConfig());
  const established = await sampleCoverage(stores);
  const known = await sampleCoverage(stores, WELL_KNOWN_NAMES);
  return `The sample is ${established.listed - established.absent.length} of the ${established.listed} established brands in data/lexicon/amazon-brand-list
and a few thousand other marks, not the register. Brands outside it are absent, among them ${known.absent.length} of the
${known.listed} well-known names in data/sample/well-known-names.txt (${known.absent.slice(0, 6).join(', ')} ...):
a title naming one answers 低 because the brand is absent, not because the title is safe. To load the register
into these tables: npm run data:update (docs/data-jobs.md).
`;
}

async function main(): Promise<void> {
  const port = portFromEnv();
  console.log('Starting DynamoDB Local and the API ...');
  let service: LocalService;
  try {
    service = await startLocalService({
      port,
      tablePrefix: TABLE_PREFIX,
      logoIndexDir: LOGO_INDEX_DIR,
      onRescreen: (event, outcome) =>
        console.log(
          `Batch ${event.batchId} (${event.market} ${event.kind}, data as of ${event.dataAsOf}): ${outcome.rescreened} watched titles of ${outcome.accounts} accounts re-screened, ${outcome.alertsRecorded} new alerts (GET /v1/alerts)${outcome.complete ? '' : '; not all reached'}.`,
        ),
    });
  } catch (error) {
    if (error instanceof JavaMissingError) {
      console.error(error.message);
      process.exit(1);
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `Port ${port} is already in use. Stop what runs there, or start on another port: PORT=3001 npm start`,
      );
      process.exit(1);
    }
    throw error;
  }
  const { runtime } = service;

  const loadStarted = Date.now();
  const loaded = await service.loadSamples();
  console.log(
    `Loaded the sample corpus in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s: ` +
      loaded.map((s) => `${s.batchId.split('#')[1]} ${s.written + s.unchanged}`).join(', '),
  );
  const coverage = await sampleCoverageOf();
  const { dependencies } = await import('../shared/composition/metering');
  const { openAccount, issueApiKey } = await import('../shared/metering/accounts');
  const deps = dependencies();
  const now = new Date();
  const account = await openAccount(deps, { name: 'Demo seller', tier: 'professional', points: 10_000, now });
  const key = await issueApiKey(deps.accounts, { accountId: account.accountId, envName: 'local', label: 'demo', now });

  mkdirSync(path.dirname(RUNTIME_FILE), { recursive: true });
  writeFileSync(
    RUNTIME_FILE,
    JSON.stringify(
      {
        dynamoDbEndpoint: runtime.dynamoDbEndpoint,
        tablePrefix: TABLE_PREFIX,
        url: runtime.server.url,
        // A local tool that completes a batch sends it (local/service-batch-events.ts): watched titles re-screen.
        eventsToken: service.eventsToken,
      },
      null,
      2,
    ),
    // It holds the events token: readable by this user only.
    { mode: 0o600 },
  );

  const base = runtime.server.url;
  console.log(`
Trademark-risk API running at ${base}   (DynamoDB Local at ${runtime.dynamoDbEndpoint})

Demo account ${account.accountId}: professional tier, ${account.points} points.
API key (shown once):  ${key.apiKey}

Try it:
  curl -s -X POST ${base}/v1/batch-screen -H 'Authorization: Bearer ${key.apiKey}' -H 'Content-Type: application/json' \\
    -d '{"items":[{"title":"Wireless earbuds for iPhone, noise cancelling","nice":"9"},{"title":"Stainless steel apple slicer"}]}'
  curl -s -X POST ${base}/v1/image-search -H 'Authorization: Bearer ${key.apiKey}' -H 'Content-Type: application/json' \\
    -d "{\\"country\\":\\"US\\",\\"limit\\":5,\\"image_b64\\":\\"$(base64 -w0 data/sample/logos/simple-icons/adidas.svg)\\"}"
  curl -s -X POST ${base}/v1/batch-screen -H 'Content-Type: application/json' -d '{"items":[]}'    # no key: 401
  curl -s ${base}/v1/account -H 'Authorization: Bearer ${key.apiKey}'    # balance, tier, rate limit (free)

${coverage}
API reference (try each call there): ${base}/docs
Next steps (usage, own brands, CSV files, MCP): README.md, "A new customer's first hour";
  export TMK_BASE_URL=${base} TMK_API_KEY=${key.apiKey}

Accounts and keys: npm run admin -- help      Stop: Ctrl-C
`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the API and DynamoDB Local ...`);
    await runtime.stop();
    rmSync(RUNTIME_FILE, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
