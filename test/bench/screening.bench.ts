/**
 * Screening speed on the sample corpus in DynamoDB Local:
 *  - the engine alone with a warm cache (titles per second on one core: the process is one JS thread), as this
 *    process loads the sources and as the Lambda runs it: bundled by esbuild with the functions' own options;
 *  - 1,000-title batches end to end over HTTP (auth, debit, screening, response): a server's first batches, and a
 *    warmed server's batches of titles new to the process;
 *  - DynamoDB calls per 1,000-title batch (BatchGetItem calls made by the screening, cold cache).
 */
import os from 'node:os';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildApiHandler } from '../../shared/http/api-handler';
import { DEFAULT_REFRESH_MS, createScreeningService } from '../../shared/screening/screening-service';
import { batchScreenOperation } from '../../functions/batch-screen/handler';
import { ROUTES } from '../../functions/routes';
import { handler as notFound } from '../../functions/not-found/handler';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { createLocalApp, listen } from '../../local/server';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { createTestStack } from '../support/test-stack';
import {
  bundledScreeningService,
  engineRates,
  machineLine,
  newTitleRate,
  percentile,
  realTitles,
  type Screener,
  timedBatchScreen,
} from './bench-support';

/** Time per title of 500-character titles built to cost the most: CJK, single letters, one long word, digits. */
async function worstCaseTitles(screener: { screen(items: { title: string }[]): Promise<unknown> }): Promise<string> {
  const kinds: [string, string][] = [
    ['500 CJK characters', '耐克运动鞋华为智能手表'.repeat(46).slice(0, 500)],
    ['250 single letters', 'a b '.repeat(125).slice(0, 500)],
    ['one 500-letter word', 'n'.repeat(500)],
    ['letters and digits', 'n1ke '.repeat(100).slice(0, 500)],
  ];
  const out: string[] = [];
  for (const [name, title] of kinds) {
    await screener.screen([{ title }]);
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) await screener.screen([{ title: `${title.slice(0, 499)}${i % 10}` }]);
    out.push(`${name} ${((performance.now() - t0) / 20).toFixed(2)} ms`);
  }
  return out.join('; ');
}

/** Long enough for a few refreshes of the default interval. */
const SUSTAINED_SECONDS = 12;

/**
 * Titles per CPU second of the process over `seconds` of back-to-back 1,000-title batches: with the service's own
 * refresh interval, the key entries go stale and the TRO list and key filters are read again as often as in a busy
 * function instance, and those batches are in the count.
 */
async function sustainedRate(screener: Screener, titles: readonly string[], seconds: number): Promise<number> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let screened = 0;
  while (performance.now() - t0 < seconds * 1000) {
    for (let i = 0; i < titles.length; i += 1000) {
      const batch = titles.slice(i, i + 1000);
      await screener.screen(batch.map((title) => ({ title })));
      screened += batch.length;
    }
  }
  const used = process.cpuUsage(cpu0);
  return screened / ((used.user + used.system) / 1e6);
}

function rateCell({ wall, cpu }: { wall: number[]; cpu: number[] }): string {
  const n = (x: number) => Math.round(x).toLocaleString('en');
  return `${n(wall[2]!)} titles/s wall clock (${n(wall[0]!)}, ${n(wall[4]!)}); ${n(cpu[2]!)} titles per CPU second of the process (${n(cpu[0]!)}, ${n(cpu[4]!)})`;
}

export async function benchScreening(): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const stack = await createTestStack();
    await loadSampleCorpus(buildDataStores(stack.config));
    const titles = realTitles();

    // DynamoDB calls made by screening, counted at the SDK.
    let batchGets = 0;
    const { raw, doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: engine.endpoint });
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'BatchGetItemCommand') batchGets++;
        return next(args);
      },
      { step: 'initialize', name: 'countBatchGets' },
    );
    const counted = createScreeningService(buildDataStores(stack.config, doc));
    const callsPerBatch: number[] = [];
    for (let i = 0; i + 1000 <= Math.min(titles.length, 5000); i += 1000) {
      const before = batchGets;
      await counted.screen(
        titles.slice(i, i + 1000).map((title) => ({ title })),
        {},
      );
      callsPerBatch.push(batchGets - before);
    }

    // End to end over HTTP, a fresh service (cold cache) behind the real chain. Its first five batches are the titles
    // the count above screened: the server's first requests, the code still being compiled as it runs. The next five
    // are titles nothing in this process has seen (their keys, rare tokens and runs are new to every cache), sent to
    // a server that has warmed up, as most requests meet an instance that has served others.
    const screening = createScreeningService(buildDataStores(stack.config));
    const handler = buildApiHandler(batchScreenOperation(screening), stack.deps);
    const server = await listen(
      createLocalApp({
        routes: ROUTES.filter((r) => r.functionName === 'batch-screen').map((r) => ({ ...r, handler })),
        fallback: notFound,
      }),
      { port: 0 },
    );
    const account = await stack.openAccount({ points: 10_000_000 });
    const post = (batch: readonly string[]) => timedBatchScreen(server.url, account.apiKey, batch);
    const firstBatches: number[] = [];
    for (let i = 0; i < 5000; i += 1000) firstBatches.push(await post(titles.slice(i, i + 1000)));
    const newTitleBatches: number[] = [];
    for (let i = 5000; i + 1000 <= titles.length; i += 1000)
      newTitleBatches.push(await post(titles.slice(i, i + 1000)));
    await server.close();
    const p = (latencies: readonly number[], q: number) =>
      percentile(
        [...latencies].sort((a, b) => a - b),
        q,
      ).toFixed(0);

    // The engine alone, cache warm: a service whose refresh interval outlasts the measurement, every title screened
    // once before the clock starts (with the default 4 s interval a warm instance re-reads its keys that often).
    // Then the same as the Lambda runs it, from the esbuild bundle (its own copy of the engine and its tables).
    const warm = createScreeningService(buildDataStores(stack.config), { refreshMs: 3_600_000 });
    const screener = warm.screener;
    const sourceRates = await engineRates(screener, titles);
    const bundled = (await bundledScreeningService('screening-bench')).createScreeningService(
      buildDataStores(stack.config),
      {
        refreshMs: 3_600_000,
      },
    );
    const bundleRates = await engineRates(bundled.screener, titles);
    const fresh = (await bundledScreeningService('screening-bench-fresh')).createScreeningService(
      buildDataStores(stack.config),
      { refreshMs: 3_600_000 },
    );
    const newRate = await newTitleRate(fresh.screener, titles);
    const withRefresh = (await bundledScreeningService('screening-bench')).createScreeningService(
      buildDataStores(stack.config),
    );
    await engineRates(withRefresh.screener, titles.slice(0, 1000));
    const sustained = await sustainedRate(withRefresh.screener, titles, SUSTAINED_SECONDS);
    const load = os.loadavg()[0]!.toFixed(1);
    const worst = await worstCaseTitles(screener);

    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench\`.
Titles: ${titles.length.toLocaleString('en')} real listing titles (test/fixtures/titles), sample corpus in DynamoDB Local.
Aims: 1,000-title batch p50 at most 150 ms (a warmed server, new titles); engine at least 40,000 titles/s on one core; at most 10 DynamoDB round trips per batch.

| measure | result |
|---|---|
| 1,000-title batch over HTTP (auth, debit, screening), a warmed server, ${newTitleBatches.length} batches of titles new to the process (cold key cache) | p50 ${p(newTitleBatches, 50)} ms, slowest ${p(newTitleBatches, 100)} ms |
| the same server's first ${firstBatches.length} batches (code still compiling; the first request also reads the key filter and the TRO list) | p50 ${p(firstBatches, 50)} ms, first ${firstBatches[0]!.toFixed(0)} ms |
| engine alone, warm cache (one JS thread), brand-use model included; median of 5 passes (slowest, fastest); machine load average ${load} on ${os.cpus().length} cores | ${rateCell(sourceRates)} |
| the same, from the esbuild bundle the batch-screen function ships (infra/constructs/bundling.ts options) | ${rateCell(bundleRates)} |
| the bundle on titles new to it: a fresh copy of the bundle (its own model, tables and JIT state) given the first 5,000 titles, then the other ${(titles.length - 5000).toLocaleString('en')} each for the first time (their key entries read from DynamoDB Local) | ${Math.round(newRate).toLocaleString('en')} titles per CPU second of the process |
| the bundle with the default refresh (${DEFAULT_REFRESH_MS / 1000} s: key entries go stale, the TRO list and key filters are read again from DynamoDB Local), ${SUSTAINED_SECONDS} s of batches back to back | ${Math.round(sustained).toLocaleString('en')} titles per CPU second of the process |
| worst case per title (500 characters), warm | ${worst} |
| BatchGetItem calls per 1,000-title batch, cold cache (5 batches) | ${callsPerBatch.join(', ')} (one round per market: the calls of a batch go out together, 4 at a time; the key filter keeps absent keys out) |
`;
  } finally {
    await engine.stop();
  }
}
