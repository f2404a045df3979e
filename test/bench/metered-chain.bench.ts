/**
 * The metered chain's own cost against DynamoDB Local, with 16 requests in flight: key lookup, account, rate limit,
 * validation, the debit transaction and the balance read, around an operation that does no work.
 *  - in process: the Lambda handler called directly (what the chain costs inside a function);
 *  - over HTTP: the same through the local server (adds HTTP and event building).
 * Each in-flight worker uses its own account (separate sellers), and one scenario has all 16 on one account.
 */
import { buildApiHandler } from '../../shared/http/api-handler';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { lambdaContext, toApiGatewayEvent } from '../../local/lambda-event';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack } from '../support/test-stack';
import { post, startTestServer } from '../support/test-server';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { issueApiKey, openAccount } from '../../shared/metering/accounts';
import { InMemoryMetering } from '../support/in-memory-ports';
import { machineLine, percentile, runInFlight, runAndWriteSection } from './bench-support';

const IN_FLIGHT = 16;
const REQUESTS = 3000;

export async function benchMeteredChain(): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const stack = await createTestStack();
    const accounts = await Promise.all(
      Array.from({ length: IN_FLIGHT }, () => stack.openAccount({ points: 1_000_000 })),
    );
    const handler = buildApiHandler(chargeTestOperation, stack.deps);
    const body = JSON.stringify({ points: 1 });

    const invoke = async (target: typeof handler, apiKey: string) => {
      const event = toApiGatewayEvent({
        method: 'POST',
        url: new URL('http://127.0.0.1/v1/test-charge'),
        headers: new Headers({ 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }),
        body: Buffer.from(body),
        sourceIp: '127.0.0.1',
        routeKey: 'POST /v1/test-charge',
      });
      const result = await target(event, lambdaContext('bench', 30_000));
      if (result.statusCode !== 200) throw new Error(`unexpected ${result.statusCode}: ${result.body}`);
    };
    const inProcess = (apiKey: string) => () => invoke(handler, apiKey);

    // Warm up the JIT, the SDK's connections and DynamoDB Local (whose own JIT needs a few thousand requests).
    await runInFlight(3000, IN_FLIGHT, (i) => inProcess(accounts[i % IN_FLIGHT]!.apiKey)());

    const direct = await runInFlight(REQUESTS, IN_FLIGHT, (i) => inProcess(accounts[i % IN_FLIGHT]!.apiKey)());
    const single = await runInFlight(1000, IN_FLIGHT, () => inProcess(accounts[0]!.apiKey)());

    const server = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
    const overHttp = await runInFlight(REQUESTS, IN_FLIGHT, async (i) => {
      const response = await post(`${server.url}/v1/test-charge`, body, {
        Authorization: `Bearer ${accounts[i % IN_FLIGHT]!.apiKey}`,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
    });
    await server.close();

    // The same chain with storage taken out: what the chain itself costs in CPU.
    const memory = new InMemoryMetering();
    const memoryDeps = {
      ...stack.deps,
      accounts: memory.accounts,
      ledger: memory.ledger,
      idempotency: memory.idempotency,
      rateLimiter: memory.rateLimiter,
    };
    const memoryAccount = await openAccount(memoryDeps, {
      name: 'bench',
      tier: 'professional',
      points: 1_000_000_000,
      now: new Date(),
    });
    const memoryKey = await issueApiKey(memory.accounts, {
      accountId: memoryAccount.accountId,
      envName: 'bench',
      now: new Date(),
    });
    const memoryHandler = buildApiHandler(chargeTestOperation, memoryDeps);
    const callMemory = () => invoke(memoryHandler, memoryKey.apiKey);
    await runInFlight(5000, IN_FLIGHT, callMemory);
    const chainOnly = await runInFlight(20_000, IN_FLIGHT, callMemory);

    // DynamoDB Local's own capacity for the debit transaction, for scale.
    const { doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: engine.endpoint });
    const rawDebits = await runInFlight(REQUESTS, IN_FLIGHT, async (i) => {
      await stack.deps.ledger.debit({
        accountId: accounts[i % IN_FLIGHT]!.accountId,
        cost: 1,
        units: 1,
        operation: 'bench',
        requestId: `raw-${i}`,
        now: new Date(),
      });
    });
    doc.destroy();

    const row = (name: string, count: number, r: { latencies: number[]; wallMs: number }) =>
      `| ${name} | ${count} | ${percentile(r.latencies, 50).toFixed(1)} | ${percentile(r.latencies, 99).toFixed(1)} | ${Math.round((count / r.wallMs) * 1000)} |`;
    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench\`.

${IN_FLIGHT} requests in flight against DynamoDB Local (in memory), each request one debit of 1 point.
Aims: chain p50 at most 15 ms; at least 1,000 debits/s.

| scenario | requests | p50 ms | p99 ms | debits/s |
|---|---|---|---|---|
${row(`in process, ${IN_FLIGHT} accounts`, REQUESTS, direct)}
${row(`in process, 1 account (all ${IN_FLIGHT} contend on one balance)`, 1000, single)}
${row(`over HTTP (local server), ${IN_FLIGHT} accounts`, REQUESTS, overHttp)}
${row('the chain alone (storage ports in memory), in process', 20_000, chainOnly)}
${row('DynamoDB Local alone: the debit transaction, no chain', REQUESTS, rawDebits)}

A metered request makes four DynamoDB calls: the key (one read that also gives tier and rate limit), the
rate-limit counter, the debit transaction, and the balance read that runs alongside the work. On this 2-core
machine DynamoDB Local (Java, one engine) and Node share the cores, and DynamoDB Local's throughput bounds the
rows above that use it: the last row is its ceiling for the debit transaction alone. The chain's own cost is the
in-memory row.
`;
  } finally {
    await engine.stop();
  }
}

if (require.main === module) runAndWriteSection('Metered chain', benchMeteredChain);
