/**
 * What a customer feels of the account routes and the bulk tool, on the sample corpus in DynamoDB Local:
 *  - GET /v1/account and GET /v1/usage over HTTP, the whole chain (key, rate limit) included, one call at a time;
 *  - `npm run screen` on a 100,000-row CSV, run as its own process against the local server: titles per second and
 *    the peak resident memory of that process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDataStores } from '../../shared/composition/data-stores';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { csvLine } from '../../local/bulk/csv-text';
import { createTestStack } from '../support/test-stack';
import { startTestServer } from '../support/test-server';
import { machineLine, percentile, realTitles, runInFlight } from './bench-support';

const ROOT = path.join(__dirname, '../..');
const BULK_ROWS = 100_000;
const CALLS = 500;

const ms = (v: number) => `${v.toFixed(1)} ms`;

export async function benchCustomer(): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-customer-'));
  try {
    const stack = await createTestStack();
    await loadSampleCorpus(buildDataStores(stack.config));
    const server = await startTestServer(stack);
    const account = await stack.openAccount({ points: 1_000_000, rateLimit: 1_000_000 });
    const now = Date.now();
    for (let i = 0; i < 200; i++) {
      const at = new Date(now - i * 3_600_000);
      await stack.deps.ledger.debit({
        accountId: account.accountId,
        keyId: account.keyId,
        cost: 1 + (i % 5),
        units: 1,
        operation: i % 3 ? 'batch-screen' : 'image-search',
        requestId: `bench-${i}`,
        now: at,
      });
    }
    const headers = { Authorization: `Bearer ${account.apiKey}` };
    const timed = async (pathAndQuery: string) => {
      await fetch(`${server.url}${pathAndQuery}`, { headers }).then((r) => r.arrayBuffer()); // warm
      return runInFlight(CALLS, 1, async () => {
        const response = await fetch(`${server.url}${pathAndQuery}`, { headers });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${pathAndQuery} answered ${response.status}`);
      });
    };
    const accountRun = await timed('/v1/account');
    const usageRun = await timed('/v1/usage?limit=100');

    // The bulk tool as its own process: its peak RSS is the figure, the server's memory is not.
    const titles = realTitles(480);
    const input = path.join(dir, 'listings.csv');
    const lines = [csvLine(['sku', 'title'])];
    for (let i = 0; i < BULK_ROWS; i++)
      lines.push(csvLine([`SKU-${i}`, `${titles[i % titles.length]} ${Math.floor(i / titles.length)}`]));
    writeFileSync(input, lines.join(''));
    const out = path.join(dir, 'results.csv');
    const script = `require('./local/bulk/screen-cli').runScreenCli(process.argv.slice(1), {}, () => {}).then(() => console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })))`;
    const started = performance.now();
    // Asynchronously: the server answering the tool lives in this process.
    const { stdout: printed } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '-e', script, input, '--out', out, '--base-url', server.url, '--key', account.apiKey],
      {
        cwd: ROOT,
        env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const { maxRssKb } = JSON.parse(printed.trim().split('\n').at(-1)!) as { maxRssKb: number };
    const written = readFileSync(out, 'utf8').split('\n').length - 2;
    await server.close();

    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench -- customer\`.
Aims: GET /v1/account and GET /v1/usage p50 at most 20 ms over HTTP locally; \`npm run screen\` on 100,000 rows with peak RSS at most 200 MB.

| measure | result |
|---|---|
| GET /v1/account over HTTP, ${CALLS} calls one at a time (key, rate limit, account read) | p50 ${ms(percentile(accountRun.latencies, 50))}, p99 ${ms(percentile(accountRun.latencies, 99))} |
| GET /v1/usage?limit=100 over HTTP, ${CALLS} calls, 200 records in range (page and totals of the range) | p50 ${ms(percentile(usageRun.latencies, 50))}, p99 ${ms(percentile(usageRun.latencies, 99))} |
| \`npm run screen\` on ${BULK_ROWS.toLocaleString('en-US')} real titles (1,000 a call, detail on), own process against the local server | ${written.toLocaleString('en-US')} rows written in ${seconds.toFixed(1)} s: ${Math.round(written / seconds).toLocaleString('en-US')} titles/s; peak RSS of the tool ${(maxRssKb / 1024).toFixed(0)} MB |

The tool's time includes starting Node with tsx and counting the rows first (for the ETA); the server (the same process as DynamoDB Local's client and the screening) shares the 2 cores with it.`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await engine.stop();
  }
}
