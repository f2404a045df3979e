/**
 * The metered chain's own cost against DynamoDB Local, with 16 requests in flight: key lookup, account, rate limit,
 * validation, the debit transaction and the balance read, around an operation that does no work.
 *  - in process: the Lambda handler called directly (what the chain costs inside a function);
 *  - over HTTP: the same through the local server (adds HTTP and event building).
 * Each in-flight worker uses its own account (separate sellers), and one scenario has all 16 on one account.
 */
import { buildApiHandler } from '../../shared/http/api-handler';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { lambdaContext, toApiGatewayEvent } from '../../infra/local/lambda-event';
import { chargeTestOperation } from '../support/test-operation';
import { createTestStack } from '../support/test-stack';
import { post, startTestServer } from '../support/test-server';
import { machineLine, percentile, runInFlight, writeSection } from './bench-support';

const IN_FLIGHT = 16;
const REQUESTS = 3000;

export async function benchMeteredChain(): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const stack = await createTestStack();
    const accounts = await Promise.all(Array.from({ length: IN_FLIGHT }, () => stack.openAccount({ points: 1_000_000 })));
    const handler = buildApiHandler(chargeTestOperation, stack.deps);
    const body = JSON.stringify({ points: 1 });

    const inProcess = (apiKey: string) => async () => {
      const event = toApiGatewayEvent({
        method: 'POST',
        url: new URL('http://127.0.0.1/v1/test-charge'),
        headers: new Headers({ 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }),
        body: Buffer.from(body),
        sourceIp: '127.0.0.1',
        routeKey: 'POST /v1/test-charge',
      });
      const result = await handler(event, lambdaContext('bench', 30_000));
      if (result.statusCode !== 200) throw new Error(`unexpected ${result.statusCode}: ${result.body}`);
    };

    // Warm up the JIT, the SDK's connections and DynamoDB Local.
    await runInFlight(500, IN_FLIGHT, (i) => inProcess(accounts[i % IN_FLIGHT]!.apiKey)());

    const direct = await runInFlight(REQUESTS, IN_FLIGHT, (i) => inProcess(accounts[i % IN_FLIGHT]!.apiKey)());
    const single = await runInFlight(1000, IN_FLIGHT, () => inProcess(accounts[0]!.apiKey)());

    const server = await startTestServer(stack, [{ path: '/v1/test-charge', operation: chargeTestOperation }]);
    const overHttp = await runInFlight(REQUESTS, IN_FLIGHT, async (i) => {
      const response = await post(`${server.url}/v1/test-charge`, body, { Authorization: `Bearer ${accounts[i % IN_FLIGHT]!.apiKey}` });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
    });
    await server.close();

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
`;
  } finally {
    await engine.stop();
  }
}

if (require.main === module) {
  benchMeteredChain()
    .then((section) => {
      writeSection('Metered chain (issue: foundation)', section);
      console.log(section);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
