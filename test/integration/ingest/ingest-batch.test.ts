/**
 * Ingest on DynamoDB Local: the real USPTO sample through the real parsers and stores; updates by serial across
 * batches; re-runs; bad records and broken files; the S3 event path through the BlobStore port.
 */
import { mkdtemp, mkdir, copyFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { FileSystemBlobStore } from '../../../shared/adapters/local/filesystem-blob-store';
import { ingestBatch, type IngestRequest, type IngestStores } from '../../../shared/ingest/ingest-batch';
import { ingestS3Event } from '../../../functions/ingest/handler';
import { createReadStream } from 'node:fs';
import { createTestStack } from '../../support/test-stack';
import type { S3Event } from 'aws-lambda';

const SEED = path.join(__dirname, '../../fixtures/uspto/daily-xml-sample/seed.xml');

let stores: IngestStores;
beforeAll(async () => {
  stores = buildDataStores((await createTestStack()).config);
});

const request = (overrides: Partial<IngestRequest> & Pick<IngestRequest, 'input'>): IngestRequest => ({
  kind: 'marks-jsonl',
  market: 'US',
  batchDate: '2026-11-01',
  source: `test-${Math.random().toString(36).slice(2)}`,
  holder: 'test',
  ...overrides,
});

const jsonl = (...lines: object[]) => Readable.from([lines.map((l) => JSON.stringify(l)).join('\n')]);
let serialCounter = 0;
const serial = () => `US-TEST-${process.pid}-${++serialCounter}`;

describe('the real USPTO daily sample', () => {
  it('lands field by field and is findable by its lookup keys', async () => {
    const summary = await ingestBatch(
      stores,
      request({ kind: 'uspto-daily', input: createReadStream(SEED), batchDate: '2026-11-20', source: 'seed.xml' }),
    );

    expect(summary).toMatchObject({ complete: true, read: 11, rejected: 0, written: 11 });
    const cutex = await stores.marks.getMark('US', '71112081');
    expect(cutex).toMatchObject({
      markText: 'CUTEX',
      statusCode: '800',
      isLive: true,
      market: 'US',
      batchDate: '2026-11-20',
    });
    const found = await stores.marks.lookup('US', ['e:tusimple', 'e:cutex', 'e:nothing-here']);
    expect(
      found
        .get('e:tusimple')!
        .map((m) => m.serial)
        .sort(),
    ).toEqual(['87310367', '87703889', '87703896']);
    expect(found.get('e:cutex')!).toEqual([
      expect.objectContaining({ serial: '71112081', markText: 'CUTEX', isLive: true }),
    ]);
    expect(found.has('e:nothing-here')).toBe(false);
    expect(await stores.batches.latestComplete('US', 'marks')).toMatchObject({
      dataAsOf: '2026-11-20',
      status: 'complete',
      counts: expect.objectContaining({ read: 11 }),
    });
    const filter = await stores.keyFilters.load('US');
    expect(filter?.mightContain('e:cutex')).toBe(true);
    expect(filter?.mightContain('e:tusimple')).toBe(true);
  });

  it('a later batch adds its keys to the market key filter', async () => {
    const s = serial();
    await ingestBatch(
      stores,
      request({ input: jsonl({ serial: s, mark: 'Zorblequist', is_live: true }), batchDate: '2026-11-21' }),
    );

    const filter = await stores.keyFilters.load('US');

    expect(filter?.mightContain('e:zorblequist')).toBe(true);
  });

  it('a re-run changes nothing', async () => {
    await ingestBatch(
      stores,
      request({ kind: 'uspto-daily', input: createReadStream(SEED), batchDate: '2026-11-20', source: 'seed.xml' }),
    );

    const again = await ingestBatch(
      stores,
      request({ kind: 'uspto-daily', input: createReadStream(SEED), batchDate: '2026-11-20', source: 'seed.xml' }),
    );

    expect(again).toMatchObject({ complete: true, read: 11, written: 0, unchanged: 11 });
  });
});

describe('updates by serial', () => {
  it('a mark that goes dead in a later batch stops counting as live, and an older batch cannot revive it', async () => {
    const s = serial();
    await ingestBatch(
      stores,
      request({ input: jsonl({ serial: s, mark: 'Glimmerwick', is_live: true, nice: [4] }), batchDate: '2026-11-01' }),
    );
    expect((await stores.marks.lookup('US', ['e:glimmerwick'])).get('e:glimmerwick')).toEqual([
      expect.objectContaining({ serial: s, isLive: true }),
    ]);

    await ingestBatch(
      stores,
      request({
        input: jsonl({ serial: s, mark: 'Glimmerwick', is_live: false, status_category: 'dead', nice: [4] }),
        batchDate: '2026-11-02',
      }),
    );
    const stale = await ingestBatch(
      stores,
      request({
        input: jsonl({ serial: s, mark: 'Glimmerwick', is_live: true, nice: [4] }),
        batchDate: '2026-11-01',
        source: 'old-again',
      }),
    );

    expect(stale).toMatchObject({ stale: 1, written: 0 });
    expect(await stores.marks.getMark('US', s)).toMatchObject({
      isLive: false,
      statusCategory: 'dead',
      batchDate: '2026-11-02',
    });
    expect((await stores.marks.lookup('US', ['e:glimmerwick'])).get('e:glimmerwick')).toEqual([
      expect.objectContaining({ serial: s, isLive: false }),
    ]);
  });

  it('a changed mark text moves the mark to its new keys and off its old ones', async () => {
    const s = serial();
    await ingestBatch(
      stores,
      request({ input: jsonl({ serial: s, mark: 'Quorvenade', is_live: true }), batchDate: '2026-11-01' }),
    );

    await ingestBatch(
      stores,
      request({ input: jsonl({ serial: s, mark: 'Brellisanth', is_live: true }), batchDate: '2026-11-02' }),
    );

    const found = await stores.marks.lookup('US', ['e:quorvenade', 'e:brellisanth']);
    expect(found.has('e:quorvenade')).toBe(false);
    expect(found.get('e:brellisanth')!.map((m) => m.serial)).toEqual([s]);
  });

  it('duplicate serials in one batch: the later record wins, in one chunk or across chunks', async () => {
    for (const chunkSize of [500, 1]) {
      const s = serial();
      const summary = await ingestBatch(
        stores,
        request({
          input: jsonl(
            { serial: s, mark: `Firstwordia${chunkSize}`, is_live: true },
            { serial: s, mark: `Secondwordia${chunkSize}`, is_live: true },
          ),
          chunkSize,
        }),
      );
      expect(summary).toMatchObject({ complete: true, read: 2, rejected: 0 });
      expect(await stores.marks.getMark('US', s)).toMatchObject({ markText: `Secondwordia${chunkSize}` });
      expect((await stores.marks.lookup('US', [`e:firstwordia${chunkSize}`])).has(`e:firstwordia${chunkSize}`)).toBe(
        false,
      );
    }
  });
});

describe('bad records and broken files', () => {
  it('a bad record is rejected with its line and the batch still completes', async () => {
    const rejects: { line: number; error: string }[] = [];
    const good = serial();
    const input = Readable.from([
      [
        JSON.stringify({ serial: good, mark: 'Tessellune', is_live: true }),
        JSON.stringify({ serial: serial(), mark: 'X'.repeat(5000), is_live: true }),
        '{"serial": "broken"',
        JSON.stringify({ serial: serial(), mark: 'Nope', is_alive: true }),
      ].join('\n'),
    ]);

    const summary = await ingestBatch(stores, request({ input, onReject: (r) => rejects.push(r) }));

    expect(summary).toMatchObject({ complete: true, read: 4, written: 1, rejected: 3 });
    expect(rejects.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(await stores.marks.getMark('US', good)).toBeDefined();
  });

  it('a USPTO file that breaks off is not complete; the records before the break are kept', async () => {
    const text = (await import('node:fs')).readFileSync(SEED, 'utf8');
    const cut = text.slice(0, text.indexOf('<serial-number>71522974'));

    const summary = await ingestBatch(
      stores,
      request({
        kind: 'uspto-daily',
        input: Readable.from([cut]),
        batchDate: '2026-11-21',
        source: 'cut.xml',
        chunkSize: 1,
      }),
    );

    expect(summary.complete).toBe(false);
    expect(summary.failure).toMatch(/line \d+/);
    // The five records before the break were read and stored (written now, or already there from the tests above).
    expect(summary.read).toBe(5);
    expect(summary.written + summary.unchanged).toBe(5);
    expect(await stores.marks.getMark('US', '71112081')).toMatchObject({ markText: 'CUTEX' });
    expect(await stores.batches.get('US', 'marks', summary.batchId)).toMatchObject({ status: 'running' });
  });

  it('a CN batch needs its coverage record, and CN marks must be in force', async () => {
    await expect(
      ingestBatch(stores, request({ market: 'CN', input: jsonl({ serial: 'CN-T-1', mark: '测试', is_live: true }) })),
    ).rejects.toThrow(/coverage/);

    const coverage = { country: 'CN', source: 'test', partial: true, coverage_note: 'test sample' };
    const summary = await ingestBatch(
      stores,
      request({
        market: 'CN',
        coverage,
        input: jsonl(
          { serial: 'CN-T-2', mark: '星河 XINGHE', is_live: true, transliteration: 'xing he' },
          { serial: 'CN-T-3', mark: '旧', is_live: false },
        ),
      }),
    );

    expect(summary).toMatchObject({ complete: true, written: 1, rejected: 1 });
    expect((await stores.marks.lookup('CN', ['e:星河'])).get('e:星河')).toEqual([
      expect.objectContaining({ serial: 'CN-T-2' }),
    ]);
    expect((await stores.batches.latestComplete('CN', 'marks'))?.coverage).toEqual(coverage);
  });

  it('one ingest at a time per market: a second holder is refused while the lock is held', async () => {
    await stores.batches.acquireLock('US', 'tro', 'someone-else', new Date(), 60);
    try {
      await expect(
        ingestBatch(stores, request({ kind: 'tro', input: Readable.from(['brand\nNike\n']) })),
      ).rejects.toThrow(/another ingest/);
    } finally {
      await stores.batches.releaseLock('US', 'tro', 'someone-else');
    }
  });
});

describe('the TRO list', () => {
  it('lands one item per brand with its plaintiffs and case count', async () => {
    const summary = await ingestBatch(
      stores,
      request({
        kind: 'tro',
        input: createReadStream(path.join(__dirname, '../../fixtures/tro/tro_brands_sample.csv')),
      }),
    );

    expect(summary.complete).toBe(true);
    const all = await stores.tro.all();
    expect(all.find((b) => b.brand === 'Ray-Ban')).toMatchObject({
      plaintiffs: ['Luxottica'],
      caseCount: expect.any(Number),
    });
    expect(all.length).toBe(summary.written);
  });
});

describe('the ingest function (S3 events through the BlobStore port)', () => {
  it('ingests each new object by its key and skips coverage sidecars and unknown keys', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bucket-'));
    const key = 'incoming/uspto-daily/US/2026-11-22/seed.xml';
    await mkdir(path.dirname(path.join(root, key)), { recursive: true });
    await copyFile(SEED, path.join(root, key));
    await writeFile(path.join(root, 'README.txt'), 'not a batch');
    const event = {
      Records: [key, 'README.txt'].map((k) => ({ s3: { bucket: { name: 'data' }, object: { key: k } } })),
    } as unknown as S3Event;
    const logged: string[] = [];

    const summaries = await ingestS3Event(event, {
      stores,
      blobsOf: () => new FileSystemBlobStore(root),
      holder: 'lambda:test',
      log: (m) => logged.push(m),
    });

    expect(summaries).toEqual([expect.objectContaining({ complete: true, read: 11 })]);
    expect(logged).toEqual(['batch ingested', 'ignored object']);
    expect(await stores.batches.get('US', 'marks', `2026-11-22#${key}`)).toMatchObject({ status: 'complete' });
  });
});
