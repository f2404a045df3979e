/**
 * Bundle size and cold initialisation of each Lambda handler, bundled with exactly the options the stacks give
 * NodejsFunction (infra/constructs/bundling.ts).
 *  - size: the minified index.js (source map excluded; the native-modules layer and the logo model file
 *    shipped beside the image functions' bundles are not part of any bundle);
 *  - cold init: a fresh `node` process per run that requires the bundle and calls its handler once with a minimal
 *    event, timed from the process's own start (performance.timeOrigin) to the handler's first answer. A handler
 *    that reads configuration gets a fake but valid environment; the event is chosen so that it answers without
 *    any network call (an API handler answers 401 missing_api_key, ingest ignores an object outside incoming/,
 *    not-found answers 404): the time to any answer counts. The AWS SDK is external, as in Lambda, where the
 *    runtime provides it; here it loads from the project's node_modules.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import {
  esbuildOptions,
  FUNCTION_IDS,
  handlerEntry,
  PROJECT_ROOT,
  type FunctionId,
} from '../../infra/constructs/bundling';
import { TABLES, tableEnvVar } from '../../shared/tables/definitions';
import { machineLine, percentile } from './bench-support';

const RUNS = 7;
const SIZE_AIM_KB = 400;
const COLD_AIM_MS = 250;
/** Inside the project, so that the external AWS SDK resolves from node_modules as the runtime's would. */
const OUT_DIR = path.join(PROJECT_ROOT, 'node_modules/.cache/bundle-bench');

const FAKE_ENVIRONMENT: Record<string, string> = {
  ENV_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'AKIDBENCHMARK',
  AWS_SECRET_ACCESS_KEY: 'bench-secret',
  SERVICE_NAME: 'trademark-risk-api',
  METRICS_NAMESPACE: 'TrademarkRiskApi/bench',
  POWERTOOLS_SERVICE_NAME: 'trademark-risk-api',
  POWERTOOLS_METRICS_NAMESPACE: 'TrademarkRiskApi/bench',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  ...Object.fromEntries(TABLES.map((t) => [tableEnvVar(t.id), `bench-${t.id}`])),
};

function apiEvent(method: string, rawPath: string): unknown {
  return {
    version: '2.0',
    routeKey: method === 'GET' && rawPath === '/nowhere' ? '$default' : `${method} ${rawPath}`,
    rawPath,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    isBase64Encoded: false,
    requestContext: {
      requestId: 'bench',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      timeEpoch: Date.now(),
    },
  };
}

const MINIMAL_EVENTS: Record<FunctionId, unknown> = {
  'batch-screen': apiEvent('POST', '/v1/batch-screen'),
  'image-search': apiEvent('POST', '/v1/image-search'),
  account: apiEvent('GET', '/v1/account'),
  usage: apiEvent('GET', '/v1/usage'),
  'get-allowlist': apiEvent('GET', '/v1/allowlist'),
  'put-allowlist': apiEvent('PUT', '/v1/allowlist'),
  feedback: apiEvent('POST', '/v1/feedback'),
  'put-watch': apiEvent('PUT', '/v1/watch'),
  'get-watch': apiEvent('GET', '/v1/watch'),
  'delete-watch': apiEvent('DELETE', '/v1/watch/SKU-1'),
  'get-alerts': apiEvent('GET', '/v1/alerts'),
  'ack-alerts': apiEvent('POST', '/v1/alerts/ack'),
  'put-webhook': apiEvent('PUT', '/v1/webhook'),
  'get-webhook': apiEvent('GET', '/v1/webhook'),
  'delete-webhook': apiEvent('DELETE', '/v1/webhook'),
  'test-webhook': apiEvent('POST', '/v1/webhook/test'),
  'webhook-dead-letters': apiEvent('GET', '/v1/webhook/dead-letters'),
  'redeliver-webhook': apiEvent('POST', '/v1/webhook/redeliver'),
  openapi: apiEvent('GET', '/v1/openapi.json'),
  status: apiEvent('GET', '/v1/status'),
  docs: apiEvent('GET', '/docs'),
  'not-found': apiEvent('GET', '/nowhere'),
  // A data job's cold start: a step of the backfile that fails validation before it calls anything.
  'register-update': { since: 'not a date' },
  'register-backfile': { action: 'none' },
  'tro-docket': {},
  'watch-rescreen': { detail: {} },
  'webhook-deliver': { detail: {} },
  ingest: { Records: [{ s3: { bucket: { name: 'bench' }, object: { key: 'not-a-batch.txt' } } }] },
};

/** Run in the child: require, invoke, print the elapsed times and what the handler answered. */
const CHILD = `
const bundle = process.argv[1];
const event = JSON.parse(process.argv[2]);
const beforeRequire = performance.now();
let handler;
try {
  ({ handler } = require(bundle));
} catch (error) {
  const done = performance.now();
  process.stdout.write(JSON.stringify({ total: done, requireAndAnswer: done - beforeRequire, status: 'init failed: ' + String(error.message).split('\\n')[0] }));
  process.exit(0);
}
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 30000, callbackWaitsForEmptyEventLoop: false };
Promise.resolve(handler(event, context)).then((answer) => {
  const done = performance.now();
  process.stdout.write(JSON.stringify({ total: done, requireAndAnswer: done - beforeRequire, status: answer && answer.statusCode }));
  process.exit(0);
}, (error) => {
  const done = performance.now();
  process.stdout.write(JSON.stringify({ total: done, requireAndAnswer: done - beforeRequire, status: 'threw: ' + error.message }));
  process.exit(0);
});
`;

interface Measurement {
  id: FunctionId;
  kb: number;
  coldTotal: number[];
  coldRequire: number[];
  answer: string;
}

async function measure(id: FunctionId): Promise<Measurement> {
  const outfile = path.join(OUT_DIR, id, 'index.js');
  rmSync(path.dirname(outfile), { recursive: true, force: true });
  mkdirSync(path.dirname(outfile), { recursive: true });
  await build(esbuildOptions(handlerEntry(id), outfile));
  const kb = statSync(outfile).size / 1024;
  const coldTotal: number[] = [];
  const coldRequire: number[] = [];
  let answer = '';
  for (let run = 0; run < RUNS; run++) {
    const out = execFileSync(process.execPath, ['-e', CHILD, outfile, JSON.stringify(MINIMAL_EVENTS[id])], {
      env: { PATH: process.env.PATH ?? '', ...FAKE_ENVIRONMENT },
      encoding: 'utf8',
    });
    const parsed = JSON.parse(out) as { total: number; requireAndAnswer: number; status: unknown };
    coldTotal.push(parsed.total);
    coldRequire.push(parsed.requireAndAnswer);
    answer = parsed.status === undefined ? 'resolved' : String(parsed.status);
  }
  return { id, kb, coldTotal: coldTotal.sort((a, b) => a - b), coldRequire: coldRequire.sort((a, b) => a - b), answer };
}

/**
 * What the batch-screen function defers to its first call that screens: loading the screening engine (lexicons, word
 * tables, the brand-use model) and its first screen of one title, over stores that answer at once (no network).
 */
const ENGINE_CHILD = `
const t0 = performance.now();
const { createScreeningService } = require(process.argv[1]);
const none = async () => undefined;
const service = createScreeningService({
  marks: { lookup: async () => new Map() }, tro: { all: async () => [] },
  batches: { latestComplete: none }, keyFilters: { load: none },
});
service.screen([{ title: 'Wireless earbuds for iPhone, noise cancelling' }], {}).then(() => {
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }));
});
`;

async function measureEngineLoad(): Promise<number[]> {
  const outfile = path.join(OUT_DIR, 'screening-engine', 'index.js');
  mkdirSync(path.dirname(outfile), { recursive: true });
  await build(esbuildOptions(path.join(PROJECT_ROOT, 'shared/screening/screening-service.ts'), outfile));
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const out = execFileSync(process.execPath, ['-e', ENGINE_CHILD, outfile], {
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    times.push((JSON.parse(out) as { ms: number }).ms);
  }
  return times.sort((a, b) => a - b);
}

export async function benchBundleSize(): Promise<string> {
  const results: Measurement[] = [];
  for (const id of FUNCTION_IDS) results.push(await measure(id));
  const engine = await measureEngineLoad();
  const fmt = (ms: number) => ms.toFixed(0);
  const rows = results.map(
    (r) =>
      `| ${r.id} | ${r.kb.toFixed(1)} | ${r.kb <= SIZE_AIM_KB ? 'yes' : 'no'} | ${fmt(percentile(r.coldTotal, 50))} | ${fmt(r.coldTotal[r.coldTotal.length - 1]!)} | ${fmt(percentile(r.coldRequire, 50))} | ${percentile(r.coldTotal, 50) <= COLD_AIM_MS ? 'yes' : 'no'} | ${r.answer} |`,
  );
  const node = readFileSync(path.join(PROJECT_ROOT, 'node_modules/esbuild/package.json'), 'utf8');
  return [
    `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench\` (esbuild ${(JSON.parse(node) as { version: string }).version}).`,
    '',
    `Each handler bundled with the stacks' own options (infra/constructs/bundling.ts: node22, CJS, minified, source maps, \`@aws-sdk/*\` and \`sharp\` external). Cold init: ${RUNS} fresh \`node\` processes per function, from process start to the handler's first answer to a minimal event (fake but valid configuration, no network: the API handlers answer 401, ingest ignores an object outside incoming/, not-found answers 404; any answer counts). "require+answer" leaves out Node's own start. Aims: at most ${SIZE_AIM_KB} KB and ${COLD_AIM_MS} ms (median).`,
    '',
    '| function | minified KB | <= 400 KB | cold init median (ms) | cold init max (ms) | require+answer median (ms) | <= 250 ms | answer |',
    '|---|---:|---|---:|---:|---:|---|---|',
    ...rows,
    '',
    `batch-screen loads its screening engine on the first call that screens (shared/composition/screening.ts): a request refused before the charge answers without it. That load plus the first screen of one title, in a fresh process, took ${fmt(percentile(engine, 50))} ms median (max ${fmt(engine[engine.length - 1]!)} ms) of ${RUNS} runs; a first valid request pays it once per instance, on top of the figure above and its DynamoDB calls.`,
  ].join('\n');
}

if (require.main === module) {
  benchBundleSize().then(
    (section) => {
      writeFileSync(path.join(OUT_DIR, 'section.md'), section);
      console.log(section);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
