/**
 * The TRO docket job end to end on DynamoDB Local: marks with owners loaded through the real ingest (marks-jsonl),
 * a local stand-in for CourtListener (the remote service has no local form: test/support/fake-courtlistener.ts)
 * serving Schedule A cases and others over two search pages, a 429 with Retry-After, a docket without parties yet,
 * a plaintiff whose marks are held under two owner spellings and one who owns none; then screening sees the
 * plaintiffs' marks as TRO brands. A rerun writes nothing; the call cap stops a run where the next one goes on.
 */
import { Readable } from 'node:stream';
import { buildDataJobStore, buildDataStores } from '../../../shared/composition/data-stores';
import { CourtListener } from '../../../shared/data-jobs/court-listener';
import { runTroDocketJob, type TroDocketJobDeps } from '../../../shared/data-jobs/tro-docket-job';
import { ingestBatch, type IngestStores } from '../../../shared/ingest/ingest-batch';
import type { DataJobStore } from '../../../shared/ports';
import { createScreeningService } from '../../../shared/screening/screening-service';
import { startFakeCourtListener, type FakeCourtListener, type FakeDocket } from '../../support/fake-courtlistener';
import { createTestStack } from '../../support/test-stack';

const TOKEN = 'cl-test-token-7f3a9c2e5b1d';
const SCHEDULE_A = 'The Partnerships and Unincorporated Associations Identified on Schedule A';

const MARKS = [
  { serial: 'TROCL-1', mark: 'Zorbliqon', nice: [28], is_live: true, owner: 'SPIN MASTER LTD.' },
  {
    serial: 'TROCL-2',
    mark: 'Quexaroo Pups',
    nice: [28],
    is_live: false,
    status_category: 'pending',
    owner: 'Spin Master, Inc.',
  },
  { serial: 'TROCL-3', mark: 'Vandrelux', nice: [28], is_live: false, owner: 'Spin Master Ltd' },
  { serial: 'TROCL-4', mark: 'Brontavia', nice: [25], is_live: true, owner: 'Brontavia Holdings LLC' },
  { serial: 'TROCL-5', mark: 'Glimmerfax', nice: [3], is_live: true, owner: 'Quiet Plaintiff, Inc.' },
  { serial: 'TROCL-6', mark: '', nice: [28], is_live: true, owner: 'SPIN MASTER LTD.', drawing_kind: 'design' },
];

/** What the TRO list held before the job: a report naming Brontavia, and a case already on the list. */
const TRO_CSV = [
  'brand,plaintiff,case_no,court,filed,source,checked_against_docket',
  'Brontavia,Brontavia Holdings,1:25-cv-00077,N.D. Ill.,2025-03-02,report,no',
  'Heldbrand,Heldbrand Co.,1:26-cv-10006,N.D. Ill.,2026-11-17,report,yes',
].join('\n');

function dockets(): FakeDocket[] {
  const plaintiff = (name: string) => ({ name, types: ['Plaintiff'] });
  const defendants = { name: SCHEDULE_A, types: ['Defendant'] };
  return [
    {
      docketId: 9001,
      caseName: `Spin Master Ltd. v. ${SCHEDULE_A}`,
      docketNumber: '1:26-cv-10001',
      courtId: 'ilnd',
      dateFiled: '2026-11-16',
      parties: [plaintiff('Spin Master Ltd.'), defendants],
    },
    {
      docketId: 9002,
      caseName: 'Acme Brands Co. v. Acme Widgets Inc.',
      docketNumber: '1:26-cv-10002',
      courtId: 'ilnd',
      dateFiled: '2026-11-17',
      parties: [plaintiff('Acme Brands Co.'), { name: 'Acme Widgets Inc.', types: ['Defendant'] }],
    },
    {
      docketId: 9006,
      caseName: `Heldbrand Co. v. ${SCHEDULE_A}`,
      docketNumber: '1:26-cv-10006',
      courtId: 'ilnd',
      dateFiled: '2026-11-17',
      parties: [plaintiff('Heldbrand Co.'), defendants],
    },
    {
      docketId: 9003,
      caseName:
        'Brontavia Holdings LLC v. The Individuals, Corporations, Limited Liability Companies, Partnerships, and Unincorporated Associations Identified on Schedule "A"',
      docketNumber: '1:26-cv-10003',
      courtId: 'ilnd',
      dateFiled: '2026-11-18',
      parties: [plaintiff('Brontavia Holdings LLC'), defendants],
    },
    {
      docketId: 9004,
      caseName: 'Nobody Owns This Corp. v. Does 1-100',
      docketNumber: '1:26-cv-10004',
      courtId: 'ilnd',
      dateFiled: '2026-11-19',
      parties: [plaintiff('Nobody Owns This Corp.'), { name: 'Does 1-100', types: ['Defendant'] }],
    },
    {
      docketId: 9005,
      caseName: `Quiet Plaintiff, Inc. v. ${SCHEDULE_A}`,
      docketNumber: '1:26-cv-10005',
      courtId: 'ilnd',
      dateFiled: '2026-11-20',
      parties: [],
    },
  ];
}

async function loadWorld(stores: IngestStores): Promise<void> {
  const lines = MARKS.map((m) => JSON.stringify({ drawing_kind: 'word', ...m }));
  const marks = await ingestBatch(stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([`${lines.join('\n')}\n`]),
    batchDate: '2026-11-01',
    source: 'tro-docket-marks',
    holder: 'tro-docket-test',
  });
  expect(marks).toMatchObject({ complete: true, written: MARKS.length, rejected: 0 });
  const tro = await ingestBatch(stores, {
    kind: 'tro',
    market: 'US',
    input: Readable.from([TRO_CSV]),
    batchDate: '2026-11-01',
    source: 'tro-sample',
    holder: 'tro-docket-test',
  });
  expect(tro).toMatchObject({ complete: true, written: 2 });
}

interface World {
  fake: FakeCourtListener;
  stores: IngestStores;
  jobs: DataJobStore;
  waits: number[];
  clock: { now: Date };
}

async function world(): Promise<World> {
  const stack = await createTestStack();
  const clock = { now: new Date('2026-11-21T10:00:00Z') };
  const stores = { ...buildDataStores(stack.config), now: () => clock.now };
  await loadWorld(stores);
  const fake = await startFakeCourtListener(TOKEN);
  fake.dockets.push(...dockets());
  fake.searchPageSize = 3;
  return { fake, stores, jobs: buildDataJobStore(stack.config), waits: [], clock };
}

function deps(w: World, maxCalls = 30): TroDocketJobDeps {
  return {
    courtListener: new CourtListener({
      token: TOKEN,
      origin: w.fake.origin,
      maxCalls,
      attempts: 2,
      sleep: async (ms) => void w.waits.push(ms),
    }),
    stores: w.stores,
    jobs: w.jobs,
    holder: 'tro-docket-test',
  };
}

const brandsOf = async (stores: IngestStores) =>
  Object.fromEntries((await stores.tro.all()).map(({ brandKey: _k, batchDate: _d, ...entry }) => [entry.brand, entry]));

async function screenedTroHit(stores: IngestStores, title: string): Promise<boolean> {
  const screening = createScreeningService(stores, { refreshMs: 0 });
  const { results } = await screening.screen([{ title, nice: '28' }], {});
  return results[0]!.tro_hit;
}

const TITLE = 'Zorbliqon Pup Rescue Playset Toy for Kids';

describe('the TRO docket job', () => {
  let w: World;

  beforeAll(async () => {
    w = await world();
  });

  afterAll(async () => {
    await w.fake.close();
  });

  it('finds the new Schedule A cases and flags the marks their plaintiffs own', async () => {
    expect(await screenedTroHit(w.stores, TITLE)).toBe(false);
    w.fake.throttle(1, '1');

    const run = await runTroDocketJob(deps(w), { courts: ['ilnd', 'flsd'] });

    expect(run).toMatchObject({ outcome: 'succeeded', from: '2026-10-22', to: '2026-11-21' });
    expect(run.stopped).toBeUndefined();
    expect(w.waits).toEqual([1000]);
    // The token went with every request, and nothing but the Schedule A cases not yet held had its parties asked for.
    expect(w.fake.requests.every((r) => r.authorization === `Token ${TOKEN}`)).toBe(true);
    expect(w.fake.partiesAsked()).toEqual([9001, 9003, 9004, 9005]);
    const firstSearch = w.fake.requests[0]!;
    expect(firstSearch).toMatchObject({
      path: '/api/rest/v4/search/',
      query: expect.objectContaining({
        type: 'r',
        court: 'ilnd',
        filed_after: '2026-10-22',
        nature_of_suit: '840',
        order_by: 'dateFiled asc',
      }),
    });
    expect(run.courts).toEqual([
      { courtId: 'ilnd', pages: 2, complete: true },
      { courtId: 'flsd', pages: 1, complete: true },
    ]);
    expect(run.counts).toEqual({
      searched: 6,
      ignored: 1,
      alreadyHeld: 1,
      newCases: 4,
      withoutParties: 1,
      deferred: 0,
      plaintiffsMatched: 2,
      plaintiffsUnmatched: 1,
      ownersAmbiguous: 1,
      marksFlagged: 3,
      brandsWritten: 3,
      calls: 8,
    });
    expect(run.cases.map((c) => [c.docketNumber, c.action])).toEqual([
      ['1:26-cv-10001', 'flagged'],
      ['1:26-cv-10003', 'flagged'],
      ['1:26-cv-10004', 'no-marks'],
      ['1:26-cv-10005', 'no-parties'],
    ]);

    const brands = await brandsOf(w.stores);
    expect(Object.keys(brands).sort()).toEqual(['Brontavia', 'Heldbrand', 'Quexaroo Pups', 'Zorbliqon']);
    expect(brands.Zorbliqon).toEqual({
      brand: 'Zorbliqon',
      plaintiffs: ['Spin Master Ltd.'],
      caseCount: 1,
      caseNumbers: ['1:26-cv-10001'],
      courts: ['N.D. Ill.'],
      lastFilingDate: '2026-11-16',
      sources: ['courtlistener'],
      checkedAgainstDocket: true,
    });
    expect(brands['Quexaroo Pups']).toMatchObject({ plaintiffs: ['Spin Master Ltd.'], caseNumbers: ['1:26-cv-10001'] });
    // Merged with the report's entry: both cases, both plaintiff spellings, the newest filing; the report's row was
    // not checked against a docket, so neither is the entry.
    expect(brands.Brontavia).toEqual({
      brand: 'Brontavia',
      plaintiffs: ['Brontavia Holdings', 'Brontavia Holdings LLC'],
      caseCount: 2,
      caseNumbers: ['1:25-cv-00077', '1:26-cv-10003'],
      courts: ['N.D. Ill.'],
      lastFilingDate: '2026-11-18',
      sources: ['report', 'courtlistener'],
      checkedAgainstDocket: false,
    });

    const state = await w.jobs.get('tro-docket');
    expect(state).toMatchObject({
      lastOutcome: 'succeeded',
      // The docket without parties (filed 2026-11-20) is asked again next run: the data date stays before it.
      appliedThrough: '2026-11-19',
      lastDetail: expect.objectContaining({
        newCases: 4,
        plaintiffsMatched: 2,
        plaintiffsUnmatched: 1,
        unmatchedPlaintiffs: 'Nobody Owns This Corp.',
        ownersAmbiguous: 1,
        marksFlagged: 3,
        calls: 8,
      }),
    });
    expect(state?.lastDetail?.ambiguousPlaintiffs).toMatch(
      /^Spin Master Ltd\. \((SPIN MASTER LTD\.|Spin Master, Inc\.)/,
    );
    expect(state?.lastDetail?.ambiguousPlaintiffs).toContain('Spin Master, Inc.');
    expect(await w.stores.batches.latestComplete('US', 'tro')).toMatchObject({
      batchId: '2026-11-21#courtlistener',
      dataAsOf: '2026-11-21',
    });
    expect(JSON.stringify([run, state])).not.toContain(TOKEN);

    expect(await screenedTroHit(w.stores, TITLE)).toBe(true);
  });

  it('a rerun with nothing new writes nothing, and asks again only for the docket without parties', async () => {
    w.clock.now = new Date('2026-11-21T16:00:00Z');
    const before = await w.stores.tro.all();
    const asked = w.fake.partiesAsked().length;
    const upsert = jest.spyOn(w.stores.tro, 'upsert');

    const run = await runTroDocketJob(deps(w), { courts: ['ilnd', 'flsd'] });

    expect(upsert).not.toHaveBeenCalled();
    upsert.mockRestore();
    expect(run).toMatchObject({ outcome: 'succeeded', from: '2026-11-16', appliedThrough: '2026-11-19' });
    expect(w.fake.partiesAsked().slice(asked)).toEqual([9005]);
    expect(run.counts).toMatchObject({
      newCases: 1,
      withoutParties: 1,
      alreadyHeld: 4,
      marksFlagged: 0,
      brandsWritten: 0,
    });
    expect(await w.stores.tro.all()).toEqual(before);
  });

  it('a docket whose parties arrive later is taken then, and the data date moves on', async () => {
    w.clock.now = new Date('2026-11-22T04:00:00Z');
    w.fake.dockets
      .find((d) => d.docketId === 9005)!
      .parties.push({
        name: 'Quiet Plaintiff, Inc.',
        types: ['Plaintiff'],
      });

    const run = await runTroDocketJob(deps(w), { courts: ['ilnd', 'flsd'] });

    expect(run).toMatchObject({ outcome: 'succeeded', appliedThrough: '2026-11-21' });
    expect(run.cases.map((c) => [c.docketNumber, c.action, c.brands])).toEqual([
      ['1:26-cv-10005', 'flagged', ['Glimmerfax']],
    ]);
    expect((await brandsOf(w.stores)).Glimmerfax).toMatchObject({
      plaintiffs: ['Quiet Plaintiff, Inc.'],
      caseNumbers: ['1:26-cv-10005'],
      lastFilingDate: '2026-11-20',
    });

    const asked = w.fake.partiesAsked().length;
    const upsert = jest.spyOn(w.stores.tro, 'upsert');
    const again = await runTroDocketJob(deps(w), { courts: ['ilnd', 'flsd'] });
    expect(upsert).not.toHaveBeenCalled();
    upsert.mockRestore();
    expect(w.fake.partiesAsked()).toHaveLength(asked);
    expect(again.counts).toMatchObject({ newCases: 0, brandsWritten: 0 });
    expect(again.appliedThrough).toBe('2026-11-21');
  });
});

describe('the call cap and failed calls', () => {
  let w: World;

  beforeAll(async () => {
    w = await world();
    w.fake.dockets
      .find((d) => d.docketId === 9005)!
      .parties.push({
        name: 'Quiet Plaintiff, Inc.',
        types: ['Plaintiff'],
      });
  });

  afterAll(async () => {
    await w.fake.close();
  });

  it('stops at the cap, keeps what it found, and the next run goes on from there', async () => {
    const capped = await runTroDocketJob(deps(w, 3), { courts: ['ilnd', 'flsd'] });

    // search page 1, the parties of 1:26-cv-10001, search page 2: the parties of 1:26-cv-10003 would be the fourth.
    // S.D. Fla. was not searched at all: nothing there since the window's start is known done, so the data date is
    // the day before the window.
    expect(capped).toMatchObject({ outcome: 'succeeded', stopped: 'call-cap', appliedThrough: '2026-10-21' });
    expect(capped.counts).toMatchObject({ calls: 3, newCases: 1, deferred: 3, brandsWritten: 2 });
    expect(capped.courts).toEqual([
      { courtId: 'ilnd', pages: 2, complete: false },
      { courtId: 'flsd', pages: 0, complete: false },
    ]);
    expect(Object.keys(await brandsOf(w.stores)).sort()).toEqual([
      'Brontavia',
      'Heldbrand',
      'Quexaroo Pups',
      'Zorbliqon',
    ]);
    expect((await brandsOf(w.stores)).Brontavia?.caseNumbers).toEqual(['1:25-cv-00077']);

    w.clock.now = new Date('2026-11-21T16:00:00Z');
    const next = await runTroDocketJob(deps(w), { courts: ['ilnd', 'flsd'] });

    expect(next).toMatchObject({ outcome: 'succeeded', from: '2026-10-18', appliedThrough: '2026-11-20' });
    expect(next.cases.map((c) => [c.docketNumber, c.action])).toEqual([
      ['1:26-cv-10003', 'flagged'],
      ['1:26-cv-10004', 'no-marks'],
      ['1:26-cv-10005', 'flagged'],
    ]);
    expect((await brandsOf(w.stores)).Brontavia?.caseNumbers).toEqual(['1:25-cv-00077', '1:26-cv-10003']);
  });

  it('a call that keeps failing ends the run failed, with what came before it written and the data date before it', async () => {
    w.fake.dockets.push(
      {
        docketId: 9007,
        caseName: `Glimmerfax Beauty Co. v. ${SCHEDULE_A}`,
        docketNumber: '1:26-cv-10007',
        courtId: 'ilnd',
        dateFiled: '2026-11-21',
        parties: [{ name: 'Quiet Plaintiff Incorporated', types: ['Plaintiff'] }],
      },
      {
        docketId: 9008,
        caseName: `Zorbliqon Toys v. ${SCHEDULE_A}`,
        docketNumber: '1:26-cv-10008',
        courtId: 'ilnd',
        dateFiled: '2026-11-22',
        parties: [{ name: 'Spin Master Ltd.', types: ['Plaintiff'] }],
      },
    );
    w.fake.failingPartiesOf = 9008;
    w.clock.now = new Date('2026-11-23T10:00:00Z');

    const run = await runTroDocketJob(deps(w), { courts: ['ilnd', 'flsd'] });

    // The data date never moves back; S.D. Fla., not searched after the failure, keeps it where it was.
    expect(run).toMatchObject({ outcome: 'failed', appliedThrough: '2026-11-20' });
    expect(run.error).toMatch(/^ilnd: .*\/api\/rest\/v4\/parties\/ answered 500$/);
    expect(run.error).not.toContain(TOKEN);
    expect((await brandsOf(w.stores)).Glimmerfax?.caseNumbers).toEqual(['1:26-cv-10005', '1:26-cv-10007']);
    expect(await w.jobs.get('tro-docket')).toMatchObject({
      lastOutcome: 'failed',
      appliedThrough: '2026-11-20',
      lastError: expect.stringContaining('answered 500'),
    });
  });
});

describe('a docket that never gets its parties', () => {
  let w: World;

  beforeAll(async () => {
    w = await world();
  });

  afterAll(async () => {
    await w.fake.close();
  });

  it('holds the data date back for two weeks after its filing date, not longer', async () => {
    w.clock.now = new Date('2026-11-30T10:00:00Z');
    const within = await runTroDocketJob(deps(w), { courts: ['ilnd'] });
    expect(within).toMatchObject({
      appliedThrough: '2026-11-19',
      counts: expect.objectContaining({ withoutParties: 1 }),
    });

    w.clock.now = new Date('2026-12-10T10:00:00Z');
    const after = await runTroDocketJob(deps(w), { courts: ['ilnd'] });

    // Still asked for (it is in the window), but filed more than 14 days ago: the data date moves on.
    expect(after.cases.map((c) => [c.docketNumber, c.action])).toEqual([['1:26-cv-10005', 'no-parties']]);
    expect(after.appliedThrough).toBe('2026-12-09');
  });
});
