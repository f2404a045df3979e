/**
 * Screening speed on the sample corpus in DynamoDB Local:
 *  - the engine alone with a warm cache (titles per second on one core: the process is one JS thread);
 *  - 1,000-title batches end to end over HTTP (auth, debit, screening, response), each batch new titles;
 *  - DynamoDB calls per 1,000-title batch (BatchGetItem calls made by the screening, cold cache).
 */
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildApiHandler } from '../../shared/http/api-handler';
import { createScreeningService } from '../../shared/screening/screening-service';
import { batchScreenOperation } from '../../functions/batch-screen/handler';
import { ROUTES } from '../../functions/routes';
import { handler as notFound } from '../../functions/not-found/handler';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { createLocalApp, listen } from '../../local/server';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { createTestStack } from '../support/test-stack';
import { machineLine, percentile } from './bench-support';

const FIXTURES = path.join(__dirname, '../fixtures/titles');

function benchTitles(): string[] {
  const flipkart = (parse(readFileSync(path.join(FIXTURES, 'flipkart-dev/flipkart_dev.csv'), 'utf8'), { columns: true }) as { product_name: string }[]).map((r) => r.product_name);
  const amazon = Object.values(JSON.parse(readFileSync(path.join(FIXTURES, 'markup-amazon/titles.json'), 'utf8')) as Record<string, string>);
  return [...flipkart, ...amazon].filter((t) => t.trim()).map((t) => t.slice(0, 500));
}

export async function benchScreening(): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const stack = await createTestStack();
    await loadSampleCorpus(buildDataStores(stack.config));
    const titles = benchTitles();

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
      await counted.screen(titles.slice(i, i + 1000).map((title) => ({ title })), {});
      callsPerBatch.push(batchGets - before);
    }

    // End to end over HTTP, a fresh service (cold cache) behind the real chain.
    const screening = createScreeningService(buildDataStores(stack.config));
    const handler = buildApiHandler(batchScreenOperation(screening), stack.deps);
    const server = await listen(
      createLocalApp({ routes: ROUTES.filter((r) => r.functionName === 'batch-screen').map((r) => ({ ...r, handler })), fallback: notFound }),
      { port: 0 },
    );
    const account = await stack.openAccount({ points: 10_000_000 });
    const latencies: number[] = [];
    for (let i = 0; i + 1000 <= titles.length; i += 1000) {
      const body = JSON.stringify({ items: titles.slice(i, i + 1000).map((title) => ({ title })) });
      const t0 = performance.now();
      const response = await fetch(`${server.url}/v1/batch-screen`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.apiKey}` }, body });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`batch-screen answered ${response.status}`);
      latencies.push(performance.now() - t0);
    }
    await server.close();
    const firstBatch = latencies[0]!;
    const sorted = [...latencies].sort((a, b) => a - b);

    // The engine alone, cache warm: every title above has been screened once already.
    const screener = screening.screener;
    const rounds = 3;
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) for (let i = 0; i < titles.length; i += 1000) await screener.screen(titles.slice(i, i + 1000).map((title) => ({ title })));
    const engineRate = (rounds * titles.length) / ((performance.now() - t0) / 1000);

    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench\`.
Titles: ${titles.length.toLocaleString('en')} real listing titles (test/fixtures/titles), sample corpus in DynamoDB Local.
Aims: 1,000-title batch p50 at most 400 ms; engine at least 20,000 titles/s on one core; at most 10 DynamoDB round trips per batch.

| measure | result |
|---|---|
| 1,000-title batch over HTTP (auth, debit, screening), ${latencies.length} batches of new titles | p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, first (cold) ${firstBatch.toFixed(0)} ms |
| engine alone, warm cache (one JS thread) | ${Math.round(engineRate).toLocaleString('en')} titles/s |
| BatchGetItem calls per 1,000-title batch, cold cache (5 batches) | ${callsPerBatch.join(', ')} (one round per market: the calls of a batch go out together, 4 at a time; the key filter keeps absent keys out) |
`;
  } finally {
    await engine.stop();
  }
}
