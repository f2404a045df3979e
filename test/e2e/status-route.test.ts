/**
 * GET /v1/status over real HTTP against DynamoDB Local, holding the sample corpus as `npm start` loads it, the
 * record of a completed US logo batch (embedding the sample logos takes minutes; only the record is read) and the
 * state of two data jobs: no key, what each market and source holds, the cache headers, the 30 s server-side
 * cache, and the refusals of other methods (as on the OpenAPI document's path).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { RunningServer } from '../../local/server';
import { SAMPLE_CORPUS_DATE } from '../../local/sample-corpus';
import { buildDataJobStore } from '../../shared/composition/data-stores';
import { batchIdOf, type Market } from '../../shared/marks/mark-record';
import type { DataJobStore } from '../../shared/ports';
import { createSampleCorpusStack, type SampleCorpusStack } from '../support/sample-corpus-stack';
import { readJson, startTestServer } from '../support/test-server';

let corpus: SampleCorpusStack;
let jobs: DataJobStore;
let server: RunningServer;
const DOCKET_ERROR = 'CourtListener answered 502 three times';

beforeAll(async () => {
  corpus = await createSampleCorpusStack();
  const logos = { market: 'US', kind: 'logos', batchId: batchIdOf(SAMPLE_CORPUS_DATE, 'sample-logos') } as const;
  await corpus.stores.batches.begin({
    ...logos,
    source: 'sample-logos',
    dataAsOf: SAMPLE_CORPUS_DATE,
    startedAt: new Date().toISOString(),
  });
  await corpus.stores.batches.complete(logos, { read: 12, written: 12 }, new Date());
  jobs = buildDataJobStore(corpus.stack.config);
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  await jobs.recordRun({
    job: 'uspto-daily',
    startedAt: hoursAgo(3),
    finishedAt: hoursAgo(3),
    outcome: 'succeeded',
    appliedThrough: SAMPLE_CORPUS_DATE,
    detail: { files: 1 },
  });
  await jobs.recordRun({
    job: 'tro-docket',
    startedAt: hoursAgo(1),
    finishedAt: hoursAgo(1),
    outcome: 'failed',
    detail: {},
    error: DOCKET_ERROR,
  });
  server = await startTestServer(corpus.stack);
}, 90_000);
afterAll(async () => server?.close());

async function distinctSerials(market: Market): Promise<number> {
  const serials = new Set<string>();
  for await (const serial of corpus.stores.marks.allSerials(market)) serials.add(serial);
  return serials.size;
}

/** The sample TRO list's rows, read straight from the CSV. */
function sampleTroRows(): { brand: string; case_no: string }[] {
  return parse(readFileSync(path.join(__dirname, '../../data/tro/tro_brands_sample.csv')), { columns: true });
}

describe('GET /v1/status', () => {
  it('answers without a key: each market and source of the sample data, and the jobs', async () => {
    const response = await fetch(`${server.url}/v1/status`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const body = await readJson(response);
    expect(Date.now() - Date.parse(body.as_of)).toBeLessThan(60_000);

    const rows = sampleTroRows();
    const brands = new Set(rows.map((r) => r.brand.trim().toLowerCase()));
    const cases = new Set(rows.map((r) => r.case_no.trim()).filter(Boolean));
    const [usSerials, cnSerials] = [await distinctSerials('US'), await distinctSerials('CN')];
    expect(usSerials).toBeGreaterThan(7000);

    expect(body.markets).toEqual([
      {
        market: 'US',
        sources: [
          {
            source: 'marks',
            data_as_of: SAMPLE_CORPUS_DATE,
            batch: batchIdOf(SAMPLE_CORPUS_DATE, 'sample-us-marks'),
            records: usSerials,
            jobs: [
              {
                name: 'uspto-daily',
                description: expect.stringContaining('USPTO'),
                last_success_at: expect.any(String),
                last_attempt_at: expect.any(String),
                applied_through: SAMPLE_CORPUS_DATE,
                overdue: false,
                last_error: null,
              },
              {
                name: 'uspto-backfile',
                description: expect.stringContaining('USPTO'),
                last_success_at: null,
                last_attempt_at: null,
                applied_through: null,
                overdue: false,
                last_error: null,
              },
            ],
          },
          {
            source: 'tro',
            data_as_of: SAMPLE_CORPUS_DATE,
            batch: batchIdOf(SAMPLE_CORPUS_DATE, 'sample-tro-list'),
            brands: brands.size,
            cases: cases.size,
            jobs: [
              {
                name: 'tro-docket',
                description: expect.any(String),
                last_success_at: null,
                last_attempt_at: expect.any(String),
                applied_through: null,
                overdue: true,
                last_error: DOCKET_ERROR,
              },
            ],
          },
          {
            source: 'logos',
            data_as_of: SAMPLE_CORPUS_DATE,
            batch: batchIdOf(SAMPLE_CORPUS_DATE, 'sample-logos'),
            jobs: [],
          },
        ],
      },
      {
        market: 'CN',
        sources: [
          {
            source: 'marks',
            data_as_of: SAMPLE_CORPUS_DATE,
            batch: batchIdOf(SAMPLE_CORPUS_DATE, 'sample-cn-marks'),
            records: cnSerials,
            jobs: [],
          },
          { source: 'logos', data_as_of: null, batch: null, jobs: [] },
        ],
      },
    ]);
  });

  it('keeps its answer for 30 s: a job run meanwhile does not show yet, on either path', async () => {
    const first = await readJson(await fetch(`${server.url}/v1/status`));
    await jobs.recordRun({
      job: 'uspto-backfile',
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
      outcome: 'succeeded',
      appliedThrough: '2025-12-31',
      detail: { files: 1 },
    });
    const burst = await Promise.all(
      Array.from({ length: 10 }, async () => readJson(await fetch(`${server.url}/v1/v1/status`))),
    );
    for (const again of burst) expect(again).toEqual(first);
  });

  it.each(['/v1/status', '/docs', '/v1/openapi.json'])('HEAD %s answers as GET does, without the body', async (p) => {
    const [get, head] = [await fetch(`${server.url}${p}`), await fetch(`${server.url}${p}`, { method: 'HEAD' })];
    expect(head.status).toBe(200);
    expect(head.status).toBe(get.status);
    for (const name of ['content-type', 'cache-control', 'content-security-policy'])
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    expect((await get.text()).length).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });

  it.each(['POST', 'PUT', 'DELETE'])('%s answers as on /v1/openapi.json: 405, Allow: GET', async (method) => {
    const [status, document] = await Promise.all(
      ['/v1/status', '/v1/openapi.json'].map((p) => fetch(`${server.url}${p}`, { method })),
    );
    expect([status!.status, status!.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect([status!.status, status!.headers.get('allow')]).toEqual([document!.status, document!.headers.get('allow')]);
    expect(status!.headers.get('cache-control')).toBeNull();
    expect((await readJson(status!)).error.code).toBe('method_not_allowed');
  });
});
