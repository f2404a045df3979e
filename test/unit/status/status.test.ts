/**
 * GET /v1/status without a table: the body built from what the stores held (jobs fresh, overdue, never run; a
 * market with no data), the same read from in-memory stores, and the handler's 30-second cache, headers and errors.
 */
import { STATUS_CACHE_SECONDS, statusHandler } from '../../../functions/status/handler';
import { MAX_ERROR_CHARS, readStatusFacts, type StatusFacts, statusBody } from '../../../functions/status/status';
import type { DataJobState } from '../../../shared/data-jobs/jobs';
import { KeyFilter } from '../../../shared/marks/key-filter';
import type { TroEntry } from '../../../shared/marks/tro-csv';
import { createLogger } from '../../../shared/observability';
import type { DataJobStore } from '../../../shared/ports';
import { lambdaContext, toApiGatewayEvent } from '../../../local/lambda-event';
import { createInMemoryDataStores } from '../../support/in-memory-data-stores';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const hoursBefore = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const LONG_ERROR = `portal answered 503: ${'x'.repeat(500)}`;

/** US marks kept by the daily job (fresh) with the backfile never run; the TRO docket job failing for 40 h; CN empty. */
const FACTS: StatusFacts = {
  batches: [
    { market: 'US', kind: 'marks', batchId: '2026-11-24#uspto-daily', dataAsOf: '2026-11-24' },
    { market: 'US', kind: 'tro', batchId: '2026-11-20#tro-docket', dataAsOf: '2026-11-20' },
    { market: 'US', kind: 'logos', batchId: '2026-11-22#sample-logos', dataAsOf: '2026-11-22' },
  ],
  serials: { US: 1234 },
  tro: [{ caseNumbers: ['1:24-cv-00001', '1:24-cv-00002'] }, { caseNumbers: ['1:24-cv-00002'] }, { caseNumbers: [] }],
  jobs: [
    {
      job: 'uspto-daily',
      lastAttemptAt: hoursBefore(2),
      lastSuccessAt: hoursBefore(2),
      lastOutcome: 'succeeded',
      appliedThrough: '2026-11-24',
    },
    {
      job: 'tro-docket',
      lastAttemptAt: hoursBefore(1),
      lastSuccessAt: hoursBefore(40),
      lastOutcome: 'failed',
      lastError: LONG_ERROR,
      appliedThrough: '2026-11-20',
    },
  ],
};

describe('statusBody', () => {
  it('lists each market and source with its newest batch, what is held and its jobs', () => {
    const body = statusBody(FACTS, NOW);
    const shortError = `${Array.from(LONG_ERROR)
      .slice(0, MAX_ERROR_CHARS - 1)
      .join('')}…`;

    expect(body).toEqual({
      as_of: '2026-11-25T12:00:00.000Z',
      markets: [
        {
          market: 'US',
          sources: [
            {
              source: 'marks',
              data_as_of: '2026-11-24',
              batch: '2026-11-24#uspto-daily',
              records: 1234,
              jobs: [
                {
                  name: 'uspto-daily',
                  description: expect.any(String),
                  last_success_at: hoursBefore(2),
                  last_attempt_at: hoursBefore(2),
                  applied_through: '2026-11-24',
                  overdue: false,
                  last_error: null,
                },
                {
                  name: 'uspto-backfile',
                  description: expect.any(String),
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
              data_as_of: '2026-11-20',
              batch: '2026-11-20#tro-docket',
              brands: 3,
              cases: 2,
              jobs: [
                {
                  name: 'tro-docket',
                  description: expect.any(String),
                  last_success_at: hoursBefore(40),
                  last_attempt_at: hoursBefore(1),
                  applied_through: '2026-11-20',
                  overdue: true,
                  last_error: shortError,
                },
              ],
            },
            { source: 'logos', data_as_of: '2026-11-22', batch: '2026-11-22#sample-logos', jobs: [] },
          ],
        },
        {
          market: 'CN',
          sources: [
            { source: 'marks', data_as_of: null, batch: null, records: null, jobs: [] },
            { source: 'logos', data_as_of: null, batch: null, jobs: [] },
          ],
        },
      ],
    });
    expect(Array.from(shortError)).toHaveLength(MAX_ERROR_CHARS);
  });

  it('shows a scheduled job never run with nulls and overdue; one started by hand is never overdue', () => {
    const body = statusBody({ batches: [], serials: {}, tro: [], jobs: [] }, NOW);
    const us = body.markets.find((m) => m.market === 'US')!;
    const jobs = us.sources.flatMap((s) => s.jobs);
    expect(jobs.map((j) => [j.name, j.overdue, j.last_success_at, j.last_attempt_at, j.applied_through])).toEqual([
      ['uspto-daily', true, null, null, null],
      ['uspto-backfile', false, null, null, null],
      ['tro-docket', true, null, null, null],
    ]);
    expect(us.sources.find((s) => s.source === 'tro')).toMatchObject({ data_as_of: null, brands: 0, cases: 0 });
    expect(us.sources.find((s) => s.source === 'marks')).toMatchObject({ data_as_of: null, records: null });
  });

  it('is overdue once the last success is older than the allowed hours, however recent the last attempt', () => {
    const at = (hours: number): DataJobState => ({
      job: 'uspto-daily',
      lastSuccessAt: hoursBefore(hours),
      lastAttemptAt: hoursBefore(0.5),
      lastOutcome: 'failed',
      lastError: 'no file listed',
    });
    const daily = (hours: number) =>
      statusBody({ batches: [], serials: {}, tro: [], jobs: [at(hours)] }, NOW).markets[0]!.sources[0]!.jobs[0]!;
    expect([daily(35.9).overdue, daily(36.1).overdue]).toEqual([false, true]);
    expect(daily(1).last_error).toBe('no file listed');
  });
});

/** The jobs' state, counting its reads; it fails while `failWith` is set. */
class FakeDataJobStore implements Pick<DataJobStore, 'all'> {
  readonly states = new Map<string, DataJobState>();
  reads = 0;
  failWith: Error | undefined;

  async all() {
    this.reads++;
    if (this.failWith) throw this.failWith;
    return [...this.states.values()];
  }
}

const TRO: TroEntry[] = [
  {
    brand: 'Stanley',
    plaintiffs: ['Stanley Black & Decker'],
    caseCount: 2,
    caseNumbers: ['1:25-cv-00010', '1:25-cv-00011'],
    courts: ['ILND'],
    sources: ['docket'],
    checkedAgainstDocket: true,
  },
  {
    brand: 'Anker',
    plaintiffs: ['Anker Innovations'],
    caseCount: 1,
    caseNumbers: ['1:25-cv-00011'],
    courts: ['ILND'],
    sources: ['docket'],
    checkedAgainstDocket: true,
  },
];

async function storesWithData() {
  const data = createInMemoryDataStores(() => NOW);
  const jobs = new FakeDataJobStore();
  await data.batches.begin({
    market: 'US',
    kind: 'marks',
    batchId: '2026-11-24#uspto-daily',
    source: 'uspto-daily',
    dataAsOf: '2026-11-24',
    startedAt: NOW.toISOString(),
  });
  await data.batches.complete({ market: 'US', kind: 'marks', batchId: '2026-11-24#uspto-daily' }, {}, NOW);
  // A newer batch still running is not what the status reports.
  await data.batches.begin({
    market: 'US',
    kind: 'marks',
    batchId: '2026-11-25#uspto-daily',
    source: 'uspto-daily',
    dataAsOf: '2026-11-25',
    startedAt: NOW.toISOString(),
  });
  const serials = KeyFilter.forCapacity(100);
  for (const serial of ['97000001', '97000002', '97000003']) serials.add(serial);
  await data.keyFilters.save('US', serials, { name: 'serials', sealed: true });
  await data.keyFilters.save('US', KeyFilter.forCapacity(100), { name: 'keys', sealed: true });
  await data.tro.upsert(TRO, '2026-11-24');
  jobs.states.set('uspto-daily', {
    job: 'uspto-daily',
    lastAttemptAt: hoursBefore(3),
    lastSuccessAt: hoursBefore(3),
    lastOutcome: 'succeeded',
    appliedThrough: '2026-11-24',
  });
  return { stores: { ...data, jobs }, jobs };
}

describe('readStatusFacts', () => {
  it('reads the newest complete batches, the serial filter count, the TRO list and the jobs', async () => {
    const { stores } = await storesWithData();
    const body = statusBody(await readStatusFacts(stores), NOW);
    expect(body.markets[0]!.sources).toEqual([
      expect.objectContaining({
        source: 'marks',
        data_as_of: '2026-11-24',
        batch: '2026-11-24#uspto-daily',
        records: 3,
        jobs: [
          expect.objectContaining({ name: 'uspto-daily', applied_through: '2026-11-24', overdue: false }),
          expect.objectContaining({ name: 'uspto-backfile', last_attempt_at: null }),
        ],
      }),
      expect.objectContaining({ source: 'tro', data_as_of: null, brands: 2, cases: 2 }),
      expect.objectContaining({ source: 'logos', data_as_of: null }),
    ]);
    expect(body.markets[1]!.sources[0]).toMatchObject({ source: 'marks', records: null });
  });
});

describe('the status handler', () => {
  const event = () =>
    toApiGatewayEvent({
      method: 'GET',
      url: new URL('http://127.0.0.1/v1/status'),
      headers: new Headers(),
      body: new Uint8Array(),
      sourceIp: '127.0.0.1',
      routeKey: 'GET /v1/status',
    });

  async function handlerAt(clock: { now: Date }) {
    const { stores, jobs } = await storesWithData();
    const handler = statusHandler({
      stores,
      logger: createLogger('test'),
      deadlineMarginMs: 500,
      now: () => clock.now,
    });
    return { handler, jobs, call: () => handler(event(), lambdaContext('status', 5000)) };
  }

  it('answers JSON, public for 60 s, and reads the stores once per 30 s however many calls come', async () => {
    const clock = { now: NOW };
    const { call, jobs } = await handlerAt(clock);

    const first = await call();
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=60',
      'X-Request-Id': expect.any(String),
    });
    expect(JSON.parse(first.body).as_of).toBe(NOW.toISOString());

    const burst = await Promise.all(Array.from({ length: 20 }, () => call()));
    expect(new Set(burst.map((r) => r.body))).toEqual(new Set([first.body]));
    clock.now = new Date(NOW.getTime() + (STATUS_CACHE_SECONDS - 1) * 1000);
    expect((await call()).body).toBe(first.body);
    expect(jobs.reads).toBe(1);

    clock.now = new Date(NOW.getTime() + STATUS_CACHE_SECONDS * 1000);
    const later = await call();
    expect(JSON.parse(later.body).as_of).toBe(clock.now.toISOString());
    expect(jobs.reads).toBe(2);
  });

  it('answers a failed read in the envelope (503 for a throttled table, 500 otherwise) and keeps nothing of it', async () => {
    const clock = { now: NOW };
    const { call, jobs } = await handlerAt(clock);
    jobs.failWith = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ProvisionedThroughputExceededException',
    });

    const throttled = await call();
    expect(throttled.statusCode).toBe(503);
    expect(JSON.parse(throttled.body).error).toMatchObject({ code: 'service_unavailable' });
    expect(throttled.headers['Cache-Control']).toBeUndefined();

    jobs.failWith = new Error('a fault');
    const failed = await call();
    expect(failed.statusCode).toBe(500);
    expect(JSON.parse(failed.body).error).toMatchObject({ code: 'internal_error', request_id: expect.any(String) });

    jobs.failWith = undefined;
    expect((await call()).statusCode).toBe(200);
    expect(jobs.reads).toBe(3);
  });
});
