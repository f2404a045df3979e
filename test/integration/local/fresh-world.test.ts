/**
 * `npm start` creates its tables afresh in DynamoDB Local: the logo indexes of an earlier run describe marks the new
 * tables do not hold, so they go with the old tables (a fresh start is a fresh world).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startLocalService, type LocalService } from '../../../local/local-service';
import { testDynamoDbEndpoint } from '../../support/test-stack';

describe('the local service and its logo indexes', () => {
  let service: LocalService | undefined;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'fresh-world-'));
  const indexes = path.join(folder, 'indexes');
  const saved = { ...process.env };

  afterAll(async () => {
    await service?.runtime.stop();
    process.env = saved;
    rmSync(folder, { recursive: true, force: true });
  });

  it('empties the index folder when it creates the tables, before any search can read it', async () => {
    mkdirSync(indexes, { recursive: true });
    writeFileSync(path.join(indexes, 'US-logo-net.usearch'), 'an index of a world that is gone');
    writeFileSync(path.join(indexes, 'US-logo-net.usearch.json'), '{}');

    service = await startLocalService({
      port: 0,
      tablePrefix: `fw${randomBytes(4).toString('hex')}`,
      logoIndexDir: indexes,
      dynamoDbEndpoint: testDynamoDbEndpoint(),
    });

    expect(existsSync(indexes) ? readdirSync(indexes) : []).toEqual([]);
  });
});
