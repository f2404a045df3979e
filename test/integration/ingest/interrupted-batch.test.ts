/**
 * An ingest whose DynamoDB goes away mid-run: the batch is left running (never complete), and the same run again,
 * once DynamoDB is back, completes it with every record in place. DynamoDB Local runs here on a folder, not in
 * memory, so that its data outlives the restart.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { createDynamoDbClients } from '../../../shared/adapters/aws/dynamodb-client';
import { loadConfig } from '../../../shared/config';
import { ingestBatch } from '../../../shared/ingest/ingest-batch';
import { createTables } from '../../../local/create-tables';
import { localEnvironment } from '../../../local/local-config';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../../local/dynamodb-local';

const SEED = path.join(__dirname, '../../fixtures/uspto/daily-xml-sample/seed.xml');
const SERIALS = ['87310367', '87703889', '87703896', '87796079', '71112081', '71522974', '72029003'];
let engine: DynamoDbLocal | undefined;

afterAll(async () => engine?.stop());

it('stopped mid-run: not complete; run again: complete, every record stored once', async () => {
  const dbPath = await mkdtemp(path.join(os.tmpdir(), 'ddb-'));
  engine = await startDynamoDbLocal({ dbPath });
  const port = engine.port;
  const { raw } = createDynamoDbClients({ region: 'us-east-1', endpoint: engine.endpoint });
  await createTables(raw, 'crash');
  raw.destroy();
  const stores = buildDataStores(
    loadConfig(localEnvironment({ dynamoDbEndpoint: engine.endpoint, tablePrefix: 'crash' })),
  );
  const run = (onProgress?: () => Promise<void>) =>
    ingestBatch(stores, {
      kind: 'uspto-daily',
      market: 'US',
      input: createReadStream(SEED),
      batchDate: '2026-11-20',
      source: 'seed.xml',
      holder: 'crash-test',
      chunkSize: 2,
      onProgress,
    });

  let chunks = 0;
  const interrupted = await run(async () => {
    if (++chunks === 2) await engine!.stop();
  });

  expect(interrupted.complete).toBe(false);
  expect(interrupted.failure).toBeDefined();
  expect(interrupted.read).toBeLessThan(11);

  engine = await startDynamoDbLocal({ dbPath, port });
  expect(await stores.batches.get('US', 'marks', interrupted.batchId)).toMatchObject({ status: 'running' });

  const resumed = await run();

  expect(resumed).toMatchObject({ complete: true, read: 11, rejected: 0 });
  expect(resumed.written + resumed.unchanged).toBe(11);
  expect(resumed.unchanged).toBeGreaterThanOrEqual(4);
  expect(await stores.batches.get('US', 'marks', resumed.batchId)).toMatchObject({
    status: 'complete',
    counts: expect.objectContaining({ read: 11 }),
  });
  for (const serial of SERIALS) expect(await stores.marks.getMark('US', serial)).toBeDefined();
  expect((await stores.marks.lookup('US', ['e:tusimple'])).get('e:tusimple')).toHaveLength(3);
});
