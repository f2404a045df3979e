/**
 * Logo batches through the ingest function's S3 event path, on DynamoDB Local with real sharp and the real
 * in-process descriptor index: the objects sit in a folder behind the same BlobStore port as the S3 bucket, and the
 * dependencies come from the composition root as in AWS (less the S3 and SageMaker parts, which have no local form;
 * the config leaves them out, as `npm start` does).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { S3Event } from 'aws-lambda';
import { ingestS3Event, type IngestEventDeps } from '../../../functions/ingest/handler';
import { FileSystemBlobStore } from '../../../shared/adapters/local/filesystem-blob-store';
import { buildDataStores } from '../../../shared/composition/data-stores';
import { buildLogoIngest, buildLogoSearch } from '../../../shared/composition/logo-search';
import type { IngestStores } from '../../../shared/ingest/ingest-batch';
import type { LogoSearchRequest } from '../../../shared/imaging/search-logos';
import { createTestStack, type TestStack } from '../../support/test-stack';

const SAMPLE_LOGOS = path.join(__dirname, '../../../data/sample/logos');
const US = `US-LOGO-EVENT-${process.pid}-`;
const CN = `CN-LOGO-EVENT-${process.pid}-`;
const BRANDS = [
  { mark: 'adidas', file: 'simple-icons/adidas.svg', nice: [25, 28] },
  { mark: 'Nike', file: 'simple-icons/nike.svg', nice: [25, 28] },
  { mark: 'Apple', file: 'simple-icons/apple.svg', nice: [9] },
  { mark: 'Acer', file: 'simple-icons/acer.svg', nice: [9] },
];

let stack: TestStack;
let stores: IngestStores;
let bucket: string;
let logged: { message: string; data: Record<string, unknown> }[];
let deps: IngestEventDeps;

const sampleLogo = (file: string) => readFile(path.join(SAMPLE_LOGOS, file));
async function put(key: string, body: Buffer | string): Promise<void> {
  await mkdir(path.dirname(path.join(bucket, key)), { recursive: true });
  await writeFile(path.join(bucket, key), body);
}
/** One record per key, each key encoded as S3 puts it in the event (spaces as `+`). */
const eventOf = (...keys: string[]) =>
  ({
    Records: keys.map((key) => ({
      s3: {
        bucket: { name: 'batches' },
        object: { key: encodeURIComponent(key).replace(/%2F/g, '/').replace(/%20/g, '+') },
      },
    })),
  }) as unknown as S3Event;
const manifestLine = (serial: string, brand: { mark: string; file: string; nice: number[] }) =>
  JSON.stringify({
    serial,
    mark: brand.mark,
    file: brand.file,
    nice: brand.nice,
    is_live: true,
    source: 'simple-icons',
  });
/** The image search as the image-search function builds it, fresh so that it sees the latest complete batch. */
const searchLogos = (request: Partial<LogoSearchRequest> & { image_b64: string }) =>
  buildLogoSearch(stack.config, stores.batches).search({ country: 'US', limit: 3, ...request });

beforeAll(async () => {
  stack = await createTestStack();
  stores = buildDataStores(stack.config);
  bucket = await mkdtemp(path.join(os.tmpdir(), 'batches-'));
  deps = {
    stores,
    logos: buildLogoIngest(stack.config, stores),
    blobsOf: () => new FileSystemBlobStore(bucket),
    holder: 'lambda:test',
    log: (message, data) => logged.push({ message, data }),
  };
  // The marks the logos belong to, through the same event path.
  const usMarks = 'incoming/marks-jsonl/US/2026-11-20/marks.jsonl';
  await put(
    usMarks,
    BRANDS.map((b, i) => JSON.stringify({ serial: `${US}${i}`, mark: b.mark, nice: b.nice, is_live: true })).join('\n'),
  );
  const cnMarks = 'incoming/marks-jsonl/CN/2026-11-20/marks.jsonl';
  await put(
    cnMarks,
    BRANDS.map((b, i) => JSON.stringify({ serial: `${CN}${i}`, mark: b.mark, nice: b.nice, is_live: true })).join('\n'),
  );
  await put(
    `${cnMarks}.coverage.json`,
    JSON.stringify({ country: 'CN', source: 'event test records', partial: true, coverage_note: 'a test store' }),
  );
  logged = [];
  const marks = await ingestS3Event(eventOf(usMarks, `${cnMarks}.coverage.json`, cnMarks), deps);
  expect(marks).toEqual([
    expect.objectContaining({ complete: true, written: BRANDS.length }),
    expect.objectContaining({ complete: true, written: BRANDS.length }),
  ]);
}, 60_000);
beforeEach(() => {
  logged = [];
});

describe('a logo batch uploaded to incoming/logos/<market>/<YYYY-MM-DD>/<batch-name>/', () => {
  it('is ingested when its manifest arrives after its images: recorded complete, and its logos are found by the image search', async () => {
    const folder = 'incoming/logos/US/2026-11-21/week 47';
    const images = BRANDS.slice(0, 3).map((b) => `${folder}/${b.file}`);
    for (const [i, key] of images.entries()) await put(key, await sampleLogo(BRANDS[i]!.file));
    await put(
      `${folder}/logos.jsonl`,
      BRANDS.slice(0, 3)
        .map((b, i) => manifestLine(`${US}${i}`, b))
        .join('\n'),
    );

    const summaries = await ingestS3Event(eventOf(...images, `${folder}/logos.jsonl`), deps);

    expect(summaries).toEqual([expect.objectContaining({ complete: true, read: 3, written: 3, rejected: 0 })]);
    expect(logged.map((l) => l.message)).toEqual([
      'logo batch image',
      'logo batch image',
      'logo batch image',
      'batch ingested',
    ]);
    expect(logged[0]!.data).toMatchObject({ key: images[0], manifest: `${folder}/logos.jsonl` });
    expect(await stores.batches.get('US', 'logos', `2026-11-21#${folder}/logos.jsonl`)).toMatchObject({
      status: 'complete',
      dataAsOf: '2026-11-21',
    });
    const found = await searchLogos({ image_b64: (await sampleLogo('simple-icons/nike.svg')).toString('base64') });
    expect(found).toMatchObject({ degraded: false, data_as_of: '2026-11-21' });
    expect(found.results[0]).toMatchObject({ serial: `${US}1`, mark: 'Nike', is_live: 1 });
    expect(found.results.map((r) => r.serial).sort()).toEqual([`${US}0`, `${US}1`, `${US}2`]);
  });

  it("ignores an image's own event: nothing is ingested and nothing is recorded, and it is not logged as an error", async () => {
    const folder = 'incoming/logos/US/2026-11-22/week-48';
    await put(`${folder}/simple-icons/acer.svg`, await sampleLogo('simple-icons/acer.svg'));

    const summaries = await ingestS3Event(eventOf(`${folder}/simple-icons/acer.svg`), deps);

    expect(summaries).toEqual([]);
    expect(logged).toEqual([
      {
        message: 'logo batch image',
        data: { bucket: 'batches', key: `${folder}/simple-icons/acer.svg`, manifest: `${folder}/logos.jsonl` },
      },
    ]);
    expect(await stores.batches.get('US', 'logos', `2026-11-22#${folder}/logos.jsonl`)).toBeUndefined();
  });

  it('rejects the line of a serial the market does not hold and completes the batch with the others', async () => {
    const folder = 'incoming/logos/US/2026-11-23/unknown-serial';
    await put(`${folder}/simple-icons/acer.svg`, await sampleLogo('simple-icons/acer.svg'));
    await put(`${folder}/simple-icons/3m.svg`, await sampleLogo('simple-icons/3m.svg'));
    const stranger = `${US}NOBODY`;
    await put(
      `${folder}/logos.jsonl`,
      [
        manifestLine(`${US}3`, BRANDS[3]!),
        manifestLine(stranger, { mark: '3M', file: 'simple-icons/3m.svg', nice: [1] }),
      ].join('\n'),
    );

    const summaries = await ingestS3Event(eventOf(`${folder}/logos.jsonl`), deps);

    expect(summaries).toEqual([expect.objectContaining({ complete: true, read: 2, written: 1, rejected: 1 })]);
    expect(logged.filter((l) => l.message === 'logo line rejected').map((l) => l.data)).toEqual([
      expect.objectContaining({
        key: `${folder}/logos.jsonl`,
        line: 2,
        serial: stranger,
        error: `no mark ${stranger} in the US store`,
      }),
    ]);
    expect(await stores.batches.get('US', 'logos', `2026-11-23#${folder}/logos.jsonl`)).toMatchObject({
      status: 'complete',
    });
    const found = await searchLogos({
      image_b64: (await sampleLogo('simple-icons/3m.svg')).toString('base64'),
      limit: 10,
    });
    expect(found.results.map((r) => r.serial)).not.toContain(stranger);
    expect(found.results.map((r) => r.serial)).toContain(`${US}3`);
  });

  it('rejects the lines whose image is missing or not an image, and completes the batch with the others', async () => {
    const folder = 'incoming/logos/US/2026-11-24/bad-images';
    await put(`${folder}/simple-icons/adidas.svg`, await sampleLogo('simple-icons/adidas.svg'));
    await put(`${folder}/broken.png`, 'this is not a PNG, whatever its name says');
    const truncated = (await readFile(path.join(SAMPLE_LOGOS, 'simple-icons/apple.svg'))).subarray(0, 40);
    await put(`${folder}/truncated.svg`, truncated);
    await put(
      `${folder}/logos.jsonl`,
      [
        manifestLine(`${US}0`, BRANDS[0]!),
        manifestLine(`${US}1`, { ...BRANDS[1]!, file: 'simple-icons/never-uploaded.svg' }),
        manifestLine(`${US}2`, { ...BRANDS[2]!, file: 'broken.png' }),
        manifestLine(`${US}2`, { ...BRANDS[2]!, file: 'truncated.svg' }),
      ].join('\n'),
    );

    const summaries = await ingestS3Event(eventOf(`${folder}/logos.jsonl`), deps);

    expect(summaries).toEqual([expect.objectContaining({ complete: true, read: 4, written: 1, rejected: 3 })]);
    const rejects = logged.filter((l) => l.message === 'logo line rejected').map((l) => l.data);
    expect(rejects.map((r) => [r.line, r.serial])).toEqual([
      [2, `${US}1`],
      [3, `${US}2`],
      [4, `${US}2`],
    ]);
    expect(rejects.map((r) => r.error)).toEqual([
      expect.stringMatching(/^image simple-icons\/never-uploaded\.svg: /),
      expect.stringMatching(/^image broken\.png: /),
      expect.stringMatching(/^image truncated\.svg: /),
    ]);
    expect(await stores.batches.get('US', 'logos', `2026-11-24#${folder}/logos.jsonl`)).toMatchObject({
      status: 'complete',
    });
  });

  it('throws when the batch cannot complete, so that S3 retries the event; the retry finishes it', async () => {
    const folder = 'incoming/logos/US/2026-11-25/retried';
    await put(`${folder}/simple-icons/acer.svg`, await sampleLogo('simple-icons/acer.svg'));
    await put(`${folder}/logos.jsonl`, manifestLine(`${US}3`, BRANDS[3]!));
    // The manifest is gone by the time the event is handled (replaced, or not yet visible).
    await rm(path.join(bucket, folder, 'logos.jsonl'));

    await expect(ingestS3Event(eventOf(`${folder}/logos.jsonl`), deps)).rejects.toThrow(
      `batch ${folder}/logos.jsonl did not complete`,
    );
    expect(await stores.batches.get('US', 'logos', `2026-11-25#${folder}/logos.jsonl`)).toMatchObject({
      status: 'running',
    });

    await put(`${folder}/logos.jsonl`, manifestLine(`${US}3`, BRANDS[3]!));
    const retried = await ingestS3Event(eventOf(`${folder}/logos.jsonl`), deps);

    expect(retried).toEqual([expect.objectContaining({ complete: true, written: 1 })]);
    expect(await stores.batches.get('US', 'logos', `2026-11-25#${folder}/logos.jsonl`)).toMatchObject({
      status: 'complete',
    });
  });

  it('takes a CN batch without a coverage sidecar: CN answers carry the coverage record of the CN mark batch', async () => {
    const folder = 'incoming/logos/CN/2026-11-21/cn-week-47';
    await put(`${folder}/simple-icons/adidas.svg`, await sampleLogo('simple-icons/adidas.svg'));
    await put(`${folder}/simple-icons/nike.svg`, await sampleLogo('simple-icons/nike.svg'));
    await put(
      `${folder}/logos.jsonl`,
      [manifestLine(`${CN}0`, BRANDS[0]!), manifestLine(`${CN}1`, BRANDS[1]!)].join('\n'),
    );

    const summaries = await ingestS3Event(eventOf(`${folder}/logos.jsonl`), deps);

    expect(summaries).toEqual([expect.objectContaining({ complete: true, written: 2, rejected: 0 })]);
    const found = await searchLogos({
      image_b64: (await sampleLogo('simple-icons/adidas.svg')).toString('base64'),
      country: 'CN',
    });
    expect(found).toMatchObject({
      country: 'CN',
      source: 'event test records',
      partial: true,
      coverage_note: 'a test store',
      data_as_of: '2026-11-21',
    });
    expect(found.results[0]).toMatchObject({ serial: `${CN}0`, jurisdiction: 'CN' });
  });

  it('indexes every design of a mark: each of three designs finds the mark, as one row with its best design', async () => {
    const folder = 'incoming/logos/US/2026-11-26/three-designs';
    const designs = ['devicon/android-original.svg', 'devicon/angular-original.svg', 'simple-icons/actix.svg'];
    for (const file of designs) await put(`${folder}/${file}`, await sampleLogo(file));
    await put(
      `${folder}/logos.jsonl`,
      designs.map((file) => manifestLine(`${US}2`, { ...BRANDS[2]!, file })).join('\n'),
    );

    const summaries = await ingestS3Event(eventOf(`${folder}/logos.jsonl`), deps);

    expect(summaries).toEqual([expect.objectContaining({ complete: true, read: 3, written: 3 })]);
    for (const file of designs) {
      const found = await searchLogos({ image_b64: (await sampleLogo(file)).toString('base64'), limit: 10 });
      expect(found).toMatchObject({ degraded: false });
      expect(found.results[0]).toMatchObject({ serial: `${US}2`, mark: 'Apple' });
      expect(found.results.filter((r) => r.serial === `${US}2`)).toHaveLength(1);
    }
    // The mark's earlier design (apple.svg, filed on 2026-11-21) is still there beside the three new ones.
    const apple = await searchLogos({ image_b64: (await sampleLogo('simple-icons/apple.svg')).toString('base64') });
    expect(apple.results[0]).toMatchObject({ serial: `${US}2`, match: expect.stringMatching(/^(likely|possible)$/) });
  });

  it('refuses, as a whole and without a retry, a logo batch dated before the logos already served', async () => {
    const folder = 'incoming/logos/US/2026-11-22/late';
    await put(`${folder}/simple-icons/acer.svg`, await sampleLogo('simple-icons/acer.svg'));
    await put(`${folder}/logos.jsonl`, manifestLine(`${US}3`, BRANDS[3]!));

    const summaries = await ingestS3Event(eventOf(`${folder}/logos.jsonl`), deps);

    expect(summaries).toEqual([
      expect.objectContaining({
        complete: false,
        written: 0,
        refused: expect.stringContaining('already as of 2026-11-26'),
      }),
    ]);
    expect(logged.map((l) => l.message)).toEqual(['batch refused']);
    expect(await stores.batches.get('US', 'logos', `2026-11-22#${folder}/logos.jsonl`)).toBeUndefined();
  });

  it('logs an object misplaced under incoming/logos/ as ignored, with the layout it should follow', async () => {
    await put('incoming/logos/US/2026-11-21/logos.jsonl', manifestLine(`${US}0`, BRANDS[0]!));

    const summaries = await ingestS3Event(eventOf('incoming/logos/US/2026-11-21/logos.jsonl'), deps);

    expect(summaries).toEqual([]);
    expect(logged).toEqual([
      {
        message: 'ignored object',
        data: expect.objectContaining({
          reason: expect.stringContaining('incoming/logos/<market>/<YYYY-MM-DD>/<batch-name>/logos.jsonl'),
        }),
      },
    ]);
  });
});
