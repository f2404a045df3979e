/**
 * What a user of `npm start` sees: a batch loaded with `npm run ingest` into the running service's tables is
 * announced to it, and its watched titles are re-screened by the watch-rescreen function in that process: the
 * alert appears on GET /v1/alerts. Real DynamoDB Local, real HTTP, the real CLI code.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIngestCli } from '../../../local/ingest-cli';
import { startLocalService, type LocalService } from '../../../local/local-service';
import { RUNTIME_FILE } from '../../../local/runtime-file';
import { LOCAL_EVENTS_PATH, LOCAL_EVENTS_TOKEN_HEADER } from '../../../local/service-batch-events';
import { targetEnvironment } from '../../../local/target-environment';
import type { BatchCompleted } from '../../../shared/ports';
import type { RescreenOutcome } from '../../../shared/watch/rescreen';
import { readJson } from '../../support/test-server';
import { testDynamoDbEndpoint } from '../../support/test-stack';

const folder = mkdtempSync(path.join(os.tmpdir(), 'ingest-rescreen-'));
const saved = { ...process.env };
const rescreens: [BatchCompleted, RescreenOutcome][] = [];
let service: LocalService;
let apiKey: string;

const call = (method: string, route: string, body?: unknown) =>
  fetch(`${service.runtime.server.url}${route}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (r) => ({ status: r.status, body: await readJson(r) }));

function marksFile(name: string, marks: object[]): string {
  const file = path.join(folder, name);
  writeFileSync(file, marks.map((m) => JSON.stringify({ drawing_kind: 'word', is_live: true, ...m })).join('\n'));
  return file;
}

beforeAll(async () => {
  service = await startLocalService({
    port: 0,
    tablePrefix: `ir${randomBytes(4).toString('hex')}`,
    logoIndexDir: path.join(folder, 'indexes'),
    dynamoDbEndpoint: testDynamoDbEndpoint(),
    onRescreen: (event, outcome) => rescreens.push([event, outcome]),
  });
  const { url } = service.runtime.server;
  const { dynamoDbEndpoint } = service.runtime;
  const tablePrefix = process.env.ACCOUNTS_TABLE!.replace(/-accounts$/, '');
  writeFileSync(RUNTIME_FILE, JSON.stringify({ dynamoDbEndpoint, tablePrefix, url, eventsToken: service.eventsToken }));
  const { dependencies } = await import('../../../shared/composition/metering');
  const { openAccount, issueApiKey } = await import('../../../shared/metering/accounts');
  const deps = dependencies();
  const now = new Date();
  const account = await openAccount(deps, { name: 'Watcher', tier: 'professional', points: 100, now });
  apiKey = (await issueApiKey(deps.accounts, { accountId: account.accountId, envName: 'local', label: 't', now }))
    .apiKey;
});

afterAll(async () => {
  await service?.runtime.stop();
  rmSync(RUNTIME_FILE, { force: true });
  process.env = saved;
  rmSync(folder, { recursive: true, force: true });
});

it('npm run ingest into the running service re-screens its watched titles: the alert is on GET /v1/alerts', async () => {
  const out: string[] = [];
  await runIngestCli(
    [
      'marks-jsonl',
      marksFile('first.jsonl', [{ serial: 'IR-1', mark: 'Zorvexa', nice: [9] }]),
      '--batch-date',
      '2026-11-20',
      '--quiet',
    ],
    () => targetEnvironment(),
    (line) => out.push(line),
  );
  await service.batchEvents.idle();
  const watched = await call('PUT', '/v1/watch', {
    items: [{ id: 'SKU-1', title: 'Quintaro bluetooth speaker, waterproof', nice: '9' }],
  });
  expect(watched.body.results[0].risk).toBe('低');
  rescreens.length = 0;

  await runIngestCli(
    [
      'marks-jsonl',
      marksFile('second.jsonl', [{ serial: 'IR-2', mark: 'QUINTARO', nice: [9] }]),
      '--batch-date',
      '2026-11-21',
      '--quiet',
    ],
    () => targetEnvironment(),
    (line) => out.push(line),
  );
  await service.batchEvents.idle();

  expect(out.filter((line) => line.includes('could not be told'))).toEqual([]);
  expect(rescreens).toEqual([
    [
      expect.objectContaining({ market: 'US', kind: 'marks', dataAsOf: '2026-11-21' }),
      expect.objectContaining({ rescreened: 1, alertsRecorded: 1, complete: true }),
    ],
  ]);
  const alerts = await call('GET', '/v1/alerts');
  expect(alerts.body.alerts).toEqual([
    expect.objectContaining({ item_id: 'SKU-1', old_risk: '低', top_conflict: 'QUINTARO', data_as_of: '2026-11-21' }),
  ]);
});

it('takes announcements only with the runtime file token, and only completed batches', async () => {
  const post = (token: string, body: unknown) =>
    fetch(`${service.runtime.server.url}${LOCAL_EVENTS_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [LOCAL_EVENTS_TOKEN_HEADER]: token },
      body: JSON.stringify(body),
    });
  const event = { market: 'US', kind: 'marks', batchId: 'b', dataAsOf: '2026-11-21' };

  expect((await post('not-the-token', event)).status).toBe(403);
  expect((await post(service.eventsToken, { market: 'US' })).status).toBe(400);
});
