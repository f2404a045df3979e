/**
 * Faults under traffic, over real HTTP against the local server, each ending with the points audit:
 *  - DynamoDB Local killed (SIGKILL) and restarted during load: clean 503s while it is gone, no charge without a
 *    record, no lost refund, and the same server answers again once it is back;
 *  - DynamoDB slow, so the function's remaining time runs out at every point of a request: each request is either
 *    done and charged once, or refused and not charged;
 *  - the blob store failing during an ingest (through the ingest function's S3-event path): the batch is not
 *    marked complete, and the retry completes it.
 * DynamoDB Local here runs on a folder (its data outlives the restart) behind a loopback TCP proxy that can delay
 * its answers. The blob store's fault is injected around the real folder-backed store: S3 has no local form.
 */
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { S3Event } from 'aws-lambda';
import { ingestS3Event } from '../../functions/ingest/handler';
import { FileSystemBlobStore } from '../../shared/adapters/local/filesystem-blob-store';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import type { BlobStore } from '../../shared/ports';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/dynamodb-local';
import { writeSyntheticDailyXml } from '../../builders/synthetic-uspto/daily-xml';
import type { RunningServer } from '../../local/server';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { auditLedger, type ObservedResponse } from '../support/ledger-audit';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';
import { openLoadAccounts, runMixedLoad, trafficBodies, type LoadAccount, type TrafficBodies } from './load-traffic';

jest.setTimeout(180_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** FAULT_FIGURES=1 prints what each run saw (for RELIABILITY.md). */
const figures = (what: string, data: unknown) =>
  process.env.FAULT_FIGURES && process.stdout.write(`${what}: ${JSON.stringify(data)}\n`);

describe('DynamoDB faults under traffic', () => {
  let engine: DynamoDbLocal;
  let dbPath: string;
  let proxy: FaultProxy;
  let stack: TestStack;
  let bodies: TrafficBodies;

  beforeAll(async () => {
    dbPath = mkdtempSync(path.join(os.tmpdir(), 'ddb-faults-'));
    engine = await startDynamoDbLocal({ dbPath });
    proxy = await startFaultProxy({ port: engine.port });
    stack = await createTestStack({}, { endpoint: proxy.endpoint });
    bodies = await trafficBodies({ screens: 5, images: 2 });
    // A slice of the sample marks, so that screening has marks and a key filter to work with.
    const marks = readFileSync(path.join(__dirname, '../../data/sample/us-marks.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 500)
      .join('\n');
    const seeded = await ingestBatch(buildDataStores(stack.config), {
      kind: 'marks-jsonl',
      market: 'US',
      input: Readable.from([marks]),
      batchDate: '2026-11-20',
      source: 'fault-seed',
      holder: 'fault-test',
    });
    expect(seeded.complete).toBe(true);
  });
  afterAll(async () => {
    await proxy?.close();
    await engine?.stop();
  });

  it('killed and restarted during load: 503s while it is gone, every point accounted for, recovery without a restart', async () => {
    // The outage must end within the function's time for the refunds of the calls it cut to be made: a charge
    // still standing at the deadline is answered 500 and alarmed as a refund failure, by design. DynamoDB Local's
    // JVM takes from 2 to 12 s to come back on a busy 2-core machine (14.8 s of outage measured once, against the
    // 15 s API function time), so the server here has 35 s, and the outage is what the test controls.
    const server = await startTestServer(stack, [], { timeoutMs: 35_000 });
    try {
      const accounts = await openLoadAccounts(stack.deps, 10);
      const load = runMixedLoad({
        url: server.url,
        accounts,
        bodies,
        imageShare: 0.2,
        connections: 10,
        durationSeconds: 16,
        maxRequests: 100_000,
        timeoutSeconds: 40,
      });

      await sleep(4000);
      await engine.stop({ kill: true });
      await sleep(3000);
      engine = await startDynamoDbLocal({ dbPath, port: engine.port });
      const { summary, observations } = await load;

      // While it was gone: clean refusals, and nothing else but the ordinary answers of the run.
      expect(Object.keys(summary.byStatus).sort()).toEqual(expect.arrayContaining(['200', '503']));
      for (const status of Object.keys(summary.byStatus)) expect(['200', '402', '429', '503']).toContain(status);
      expect(summary.byCode.internal_error).toBeUndefined();
      expect(summary.transportErrors).toBe(0);

      // The same server answers again.
      const healthy = accounts.find((a) => a.profile === 'plenty')!;
      const after = await post(
        `${server.url}/v1/batch-screen`,
        { items: [{ title: 'stainless steel garlic press' }] },
        { Authorization: `Bearer ${healthy.apiKey}` },
      );
      expect(after.status).toBe(200);
      observations.push({
        requestId: after.headers.get('x-request-id') ?? undefined,
        accountId: healthy.accountId,
        status: 200,
        points: Number(after.headers.get('x-points-cost')),
      });

      const audit = await auditLedger(
        stack.deps,
        accounts.map((a) => a.accountId),
        observations,
      );
      figures('killed and restarted', { ...summary, audit });
      expect(audit.violations).toEqual([]);
      expect(audit.chargeRecords).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('slow, so that the remaining time runs out mid-request: done and charged once, or refused and not charged', async () => {
    const accounts: LoadAccount[] = (await openLoadAccounts(stack.deps, 10)).filter((a) => a.profile === 'plenty');
    const observations: ObservedResponse[] = [];
    const send = async (server: RunningServer, account: LoadAccount, body: string) => {
      const response = await post(`${server.url}/v1/batch-screen`, body, { Authorization: `Bearer ${account.apiKey}` });
      const json = await readJson(response);
      observations.push({
        requestId: response.headers.get('x-request-id') ?? undefined,
        accountId: account.accountId,
        status: response.status,
        points: response.ok ? Number(response.headers.get('x-points-cost')) : 0,
        code: json.error?.code,
      });
    };
    // From no delay to far past the budget, so that the deadline falls before, during and after the debit. Each
    // step has a server of its own (4 s of function time, 1.5 s of it kept back for the refund and 1 s more before
    // a debit may begin: a debit not begun by 1.5 s in is refused uncharged, and the work has until 2.5 s), warmed by one small request, so that its screening cache starts cold and its lookups go to the
    // slow table.
    for (const delayMs of [0, 150, 300, 400, 450, 500, 650, 900]) {
      const server: RunningServer = await startTestServer(stack, [], { timeoutMs: 4000 });
      try {
        await send(server, accounts[0]!, JSON.stringify({ items: [{ title: 'warm-up' }] }));
        proxy.delayMs = delayMs;
        await Promise.all(
          accounts.map((account, i) => send(server, account, bodies.screens[i % bodies.screens.length]!)),
        );
      } finally {
        proxy.delayMs = 0;
        await server.close();
      }
    }
    // Done in time at no delay, refused far past the budget, and nothing else in between.
    const statuses = new Set(observations.map((o) => o.status));
    expect([...statuses].sort()).toEqual([200, 503]);
    expect(observations.filter((o) => o.status === 503).every((o) => o.code === 'service_unavailable')).toBe(true);

    const audit = await auditLedger(
      stack.deps,
      accounts.map((a) => a.accountId),
      observations,
    );
    figures('slow past the deadline', { statuses: observations.map((o) => o.status).join(' '), audit });
    expect(audit.violations).toEqual([]);
    // Some requests were charged and then given their points back: the deadline fell after the debit.
    expect(audit.refundedRecords).toBeGreaterThan(0);
  });
});

/** The real folder-backed store, with S3's failures put in front: refused at once, or cut after some bytes. */
class FailingBlobStore implements BlobStore {
  constructor(
    private readonly inner: BlobStore,
    private readonly fault: { kind: 'unreachable' } | { kind: 'cut'; afterBytes: number },
  ) {}

  async open(key: string): Promise<NodeJS.ReadableStream> {
    if (this.fault.kind === 'unreachable')
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
    const source = await this.inner.open(key);
    const limit = this.fault.afterBytes;
    // Read as the consumer reads (with backpressure, as a socket is); the connection resets at `limit` bytes.
    return Readable.from(
      (async function* () {
        let passed = 0;
        for await (const chunk of source as AsyncIterable<Buffer>) {
          const room = limit - passed;
          yield chunk.length <= room ? chunk : chunk.subarray(0, room);
          passed += Math.min(chunk.length, room);
          if (passed >= limit) throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        }
      })(),
    );
  }
}

describe('the blob store failing during an ingest', () => {
  let stack: TestStack;
  let folder: string;
  const key = 'incoming/uspto-daily/US/2026-11-21/apc261121.xml';
  const event = { Records: [{ s3: { bucket: { name: 'data' }, object: { key } } }] } as unknown as S3Event;

  beforeAll(async () => {
    stack = await createTestStack();
    folder = mkdtempSync(path.join(os.tmpdir(), 'blobs-'));
    mkdirSync(path.dirname(path.join(folder, key)), { recursive: true });
    const sink = createWriteStream(path.join(folder, key));
    // More records than one ingest chunk (4,000), so that a chunk is written before the cut at 70%.
    await writeSyntheticDailyXml(sink, { records: 6000, seed: 7 });
    sink.end();
    await finished(sink);
  });

  it('unreachable, then cut mid-file: the batch never completes and the function fails (so the event is retried); the retry completes it', async () => {
    const stores = buildDataStores(stack.config);
    const run = (blobs: BlobStore) =>
      ingestS3Event(event, { stores, blobsOf: () => blobs, holder: 'fault-test', log: () => undefined });
    const healthy = new FileSystemBlobStore(folder);
    const size = readFileSync(path.join(folder, key)).length;

    await expect(run(new FailingBlobStore(healthy, { kind: 'unreachable' }))).rejects.toThrow(/ECONNREFUSED/);
    await expect(
      run(new FailingBlobStore(healthy, { kind: 'cut', afterBytes: Math.floor(size * 0.7) })),
    ).rejects.toThrow(/did not complete/);
    expect(await stores.batches.get('US', 'marks', `2026-11-21#${key}`)).toMatchObject({ status: 'running' });

    const [summary] = await run(healthy);
    expect(summary).toMatchObject({ complete: true, read: 6000, rejected: 0 });
    // Records written before the cut are counted as unchanged, not written twice.
    expect(summary!.written + summary!.unchanged).toBe(6000);
    expect(summary!.unchanged).toBeGreaterThan(0);
    expect(await stores.batches.get('US', 'marks', summary!.batchId)).toMatchObject({ status: 'complete' });
  });
});
