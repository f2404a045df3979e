/**
 * POST /v1/image-search over real HTTP on DynamoDB Local, with real sharp, a few real sample logos ingested by
 * the logo ingest, and the in-process descriptor index. The CLIP primary path runs against the local
 * SageMaker-compatible endpoint (SageMaker has no local form: that server speaks its InvokeEndpoint contract).
 *
 * Over 400 lines on purpose: one operation over HTTP, its cases sharing one stack with ingested logos.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import sharp from 'sharp';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildLogoIngest, buildLogoSearch } from '../../shared/composition/logo-search';
import { buildApiHandler } from '../../shared/http/api-handler';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { ingestLogos } from '../../shared/ingest/ingest-logos';
import { calibrationKey } from '../../shared/imaging/logo-calibrations';
import { createLogoSearchService } from '../../shared/imaging/logo-search-service';
import { REMOTE_WINDOWS } from '../../shared/imaging/regions';
import { INGEST_SVG_DEADLINE_MS, normalizeImage } from '../../shared/imaging/normalize-image';
import { SageMakerClipEmbedder } from '../../shared/adapters/aws/sagemaker-embedder';
import { FolderUsearchIndexStore } from '../../shared/adapters/local/usearch-index-store';
import { FileSystemBlobStore } from '../../shared/adapters/local/filesystem-blob-store';
import { UsearchVectorIndex } from '../../shared/adapters/local/usearch-vector-index';
import type { Embedder, NormalizedImage } from '../../shared/ports';
import { imageSearchOperation } from '../../functions/image-search/handler';
import { createLocalApp, listen, type RunningServer } from '../../local/server';
import { startSageMakerEndpointServer, type LocalSageMakerEndpoint } from '../support/sagemaker-endpoint-server';
import { handler as notFound } from '../../functions/not-found/handler';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';
import { pngDeclaring, solidPng } from '../unit/imaging/test-images';

const LOGOS = path.join(__dirname, '../../data/sample/logos');
const BRANDS: [string, string, number[]][] = [
  ['adidas', 'simple-icons/adidas.svg', [25]],
  ['Nike', 'simple-icons/nike.svg', [25, 28]],
  ['Apple', 'simple-icons/apple.svg', [9]],
  ['3M', 'simple-icons/3m.svg', [1, 16, 17]],
  ['Acer', 'simple-icons/acer.svg', [9]],
];

let stack: TestStack;
let server: RunningServer;
let url: string;
let apiKey: string;
let accountId: string;
const svg = (file: string) => readFileSync(path.join(LOGOS, file));
const b64 = (bytes: Buffer) => bytes.toString('base64');
const balance = async (id = accountId) => (await stack.deps.accounts.getAccount(id, { consistent: true }))!.points;

async function loadLogos(
  target: TestStack,
  market: 'US' | 'CN',
  serialPrefix: string,
  embedders: { embedder: Embedder }[],
) {
  const stores = buildDataStores(target.config);
  const lines = BRANDS.map(([mark, , nice], i) =>
    JSON.stringify({ serial: `${serialPrefix}${i}`, mark, nice, is_live: i !== 4 }),
  );
  await ingestBatch(stores, {
    kind: 'marks-jsonl',
    market,
    input: Readable.from([lines.join('\n')]),
    batchDate: '2026-11-20',
    source: `e2e-${market}`,
    holder: 'e2e',
    ...(market === 'CN'
      ? { coverage: { country: 'CN', source: 'e2e sample', partial: true, coverage_note: 'e2e beta' } }
      : {}),
  });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'logos-'));
  mkdirSync(path.join(folder, 'simple-icons'));
  const manifest = BRANDS.map(([mark, file, nice], i) => {
    copyFileSync(path.join(LOGOS, file), path.join(folder, file));
    return JSON.stringify({
      serial: `${serialPrefix}${i}`,
      mark,
      file,
      nice,
      is_live: i !== 4,
      source: 'simple-icons',
    });
  });
  writeFileSync(path.join(folder, 'logos.jsonl'), manifest.join('\n'));
  const summary = await ingestLogos(
    {
      marks: stores.marks,
      batches: stores.batches,
      indexes: new FolderUsearchIndexStore(target.config.logos.indexDir),
      embedders,
      normalize: (b) => normalizeImage(b, { svgDeadlineMs: INGEST_SVG_DEADLINE_MS }),
      now: () => new Date(),
    },
    {
      blobs: new FileSystemBlobStore(folder),
      manifestKey: 'logos.jsonl',
      market,
      batchDate: '2026-11-21',
      source: `e2e-logos-${market}`,
      holder: 'e2e',
    },
  );
  // The CN store holds only marks in force: the dead mark's line is refused there, and its logo with it.
  expect(summary).toMatchObject({
    complete: true,
    written: market === 'CN' ? BRANDS.length - 1 : BRANDS.length,
    rejected: market === 'CN' ? 1 : 0,
  });
}

beforeAll(async () => {
  stack = await createTestStack();
  // Every embedder the service searches with (the learned one and the descriptor), as ingest has them.
  await loadLogos(stack, 'US', 'US-E2E-', buildLogoIngest(stack.config).embedders);
  await loadLogos(stack, 'CN', 'CN-E2E-', buildLogoIngest(stack.config).embedders);
  server = await startTestServer(stack);
  url = `${server.url}/v1/image-search`;
  ({ apiKey, accountId } = await stack.openAccount({ points: 1000 }));
}, 120_000);
afterAll(async () => server?.close());

const search = (body: unknown, query = '') => post(`${url}${query}`, body, { Authorization: `Bearer ${apiKey}` });

describe('finding a logo', () => {
  it('a logo finds its own mark first, scores in [0, 1] descending, 5 points charged', async () => {
    const before = await balance();

    const response = await search({ image_b64: b64(svg('simple-icons/adidas.svg')), limit: 3 });

    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body).toMatchObject({ count: 3, degraded: false, data_as_of: '2026-11-21' });
    expect(body.results[0]).toMatchObject({ serial: 'US-E2E-0', mark: 'adidas', nice: '25', is_live: 1 });
    expect(body.results[0]).not.toHaveProperty('jurisdiction');
    const scores = body.results.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(scores.every((s: number) => s >= 0 && s <= 1)).toBe(true);
    expect(response.headers.get('x-points-cost')).toBe('5');
    expect(await balance()).toBe(before - 5);
  });

  it('says how sure it is (match) and, in detail mode, where in the picture the mark was found (region)', async () => {
    // The adidas logo at a third of the side in the top-left corner of a 600 x 600 grey product shot.
    const logo = await sharp(svg('simple-icons/adidas.svg'), { density: 300 })
      .resize(200, 200, { fit: 'inside' })
      .png()
      .toBuffer();
    const picture = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#8a8a80' } })
      .composite([{ input: logo, left: 40, top: 60 }])
      .png()
      .toBuffer();

    const body = await readJson(await search({ image_b64: b64(picture), limit: 3, detail: true }));

    expect(body.results[0]).toMatchObject({ serial: 'US-E2E-0', match: expect.stringMatching(/^(likely|possible)$/) });
    const region = body.results[0].region;
    expect(region.x).toBeLessThan(200);
    expect(region.y).toBeLessThan(200);
    expect(region.x + region.width).toBeGreaterThan(140);
    expect(region.width).toBeLessThanOrEqual(600);
    expect(body.results.every((r: { match: string }) => ['likely', 'possible', 'none'].includes(r.match))).toBe(true);
    const plain = await readJson(await search({ image_b64: b64(picture), limit: 3 }));
    expect(plain.results[0]).not.toHaveProperty('region');
  });

  it('a data: prefix, the default limit and the nice filter', async () => {
    const body = await readJson(
      await search({ image_b64: `data:image/svg+xml;base64,${b64(svg('simple-icons/apple.svg'))}`, nice: 9 }),
    );
    expect(body.results.map((r: { serial: string }) => r.serial).sort()).toEqual(['US-E2E-2', 'US-E2E-4']);
    expect(body.results[0].serial).toBe('US-E2E-2');
  });

  it('CN answers only marks in force, each with its jurisdiction, and the coverage record', async () => {
    const body = await readJson(
      await search({ image_b64: b64(svg('simple-icons/acer.svg')), country: 'CN', limit: 10 }),
    );
    expect(body).toMatchObject({
      country: 'CN',
      source: 'e2e sample',
      partial: true,
      coverage_note: 'e2e beta',
      degraded: false,
    });
    expect(body.results.length).toBe(4);
    expect(
      body.results.every((r: { is_live: number; jurisdiction: string }) => r.is_live === 1 && r.jurisdiction === 'CN'),
    ).toBe(true);
    expect(body.results.map((r: { serial: string }) => r.serial)).not.toContain('CN-E2E-4');
  });

  it('query parameters work as body fields', async () => {
    const body = await readJson(await search({ image_b64: b64(svg('simple-icons/nike.svg')) }, '?limit=2&country=US'));
    expect(body.count).toBe(2);
    expect(body.results[0].mark).toBe('Nike');
  });
});

describe('refusals, none of them charged', () => {
  const png = () => solidPng(8, 8, '#ff0000');
  const cases: [string, () => Promise<unknown>, number, string][] = [
    [
      'both sources',
      async () => ({ image_b64: b64(await png()), url: 'https://example.com/a.png' }),
      400,
      'image_source_conflict',
    ],
    ['neither source', async () => ({ limit: 3 }), 400, 'image_source_missing'],
    ['bad base64', async () => ({ image_b64: 'not base64!!' }), 400, 'image_unreadable'],
    ['an empty image', async () => ({ image_b64: '' }), 400, 'invalid_request'],
    [
      'a text file posted as an image',
      async () => ({ image_b64: b64(Buffer.from('hello, I am not an image\n')) }),
      400,
      'image_unreadable',
    ],
    [
      'a pixel bomb (50,000 x 50,000 declared)',
      async () => ({ image_b64: b64(await pngDeclaring(50_000, 50_000)) }),
      400,
      'image_unreadable',
    ],
    [
      'an SVG with an external reference',
      async () => ({
        image_b64: b64(
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="http://127.0.0.1:1/x.png" width="10" height="10"/></svg>',
          ),
        ),
      }),
      400,
      'image_unreadable',
    ],
    ['limit 0', async () => ({ image_b64: b64(await png()), limit: 0 }), 400, 'invalid_request'],
    ['limit 51', async () => ({ image_b64: b64(await png()), limit: 51 }), 400, 'invalid_request'],
    ['limit "abc"', async () => ({ image_b64: b64(await png()), limit: 'abc' }), 400, 'invalid_request'],
    ['country "us"', async () => ({ image_b64: b64(await png()), country: 'us' }), 400, 'country_not_supported'],
    ['country "JP"', async () => ({ image_b64: b64(await png()), country: 'JP' }), 400, 'country_not_supported'],
    [
      'a blank image (one colour)',
      async () => ({ image_b64: b64(await solidPng(64, 64, '#ffffff')) }),
      422,
      'image_has_no_content',
    ],
    ['a single-colour image', async () => ({ image_b64: b64(await png()) }), 422, 'image_has_no_content'],
  ];

  it.each(cases)('%s', async (_name, body, status, code) => {
    const before = await balance();
    const response = await search(await body());
    expect(response.status).toBe(status);
    expect((await readJson(response)).error.code).toBe(code);
    expect(await balance()).toBe(before);
  });
});

describe('the primary path and the degraded fallback', () => {
  /** A 512-dimension stand-in for CLIP: the local endpoint serves it over SageMaker's contract. */
  const clipStandIn: Embedder = {
    name: 'clip',
    dimensions: 512,
    async embed(image: NormalizedImage) {
      const v = new Float32Array(512);
      for (let i = 0; i < image.rgb.length; i += 3)
        v[((image.rgb[i]! >> 5) << 6) | ((image.rgb[i + 1]! >> 5) << 3) | (image.rgb[i + 2]! >> 5)]! += 1;
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    },
  };
  let endpoint: LocalSageMakerEndpoint;
  const clientOf = (server: LocalSageMakerEndpoint) =>
    new SageMakerRuntimeClient({
      region: 'us-east-1',
      endpoint: server.url,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    });
  let primaryServer: RunningServer;
  let primaryUrl: string;
  const clipIndex = new UsearchVectorIndex(512);

  beforeAll(async () => {
    endpoint = await startSageMakerEndpointServer({ embedder: clipStandIn, endpointName: 'clip-e2e' });
    for (const [i, [mark, file, nice]] of BRANDS.entries()) {
      const image = await normalizeImage(svg(file));
      await clipIndex.put([
        {
          vector: await clipStandIn.embed(image),
          metadata: {
            serial: `US-E2E-${i}`,
            design: file,
            mark,
            nice: nice.map((n) => String(n).padStart(2, '0')),
            isLive: i !== 4,
          },
        },
      ]);
    }
    const client = new SageMakerRuntimeClient({
      region: 'us-east-1',
      endpoint: endpoint.url,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    });
    const service = createLogoSearchService({
      batches: buildDataStores(stack.config).batches,
      indexes: new FolderUsearchIndexStore(stack.config.logos.indexDir),
      primary: { embedder: new SageMakerClipEmbedder(client, 'clip-e2e', { budgetMs: 3000 }), index: () => clipIndex },
      // Generous, so that a loaded machine does not make the in-time answer late; the slow endpoint is far slower.
      primaryBudgetMs: 3000,
    });
    const handler = buildApiHandler(imageSearchOperation(service), stack.deps);
    primaryServer = await listen(
      createLocalApp({
        routes: [{ method: 'POST', path: '/v1/image-search', functionName: 'image-search', handler }],
        fallback: notFound,
      }),
      { port: 0 },
    );
    primaryUrl = `${primaryServer.url}/v1/image-search`;
  });
  afterAll(async () => {
    await primaryServer?.close();
    await endpoint?.close();
  });
  beforeEach(() =>
    Object.assign(endpoint.behaviour, { delayMs: 0, throttle: false, failStatus: undefined, modelError: false }),
  );

  const searchPrimary = (body: unknown) => post(primaryUrl, body, { Authorization: `Bearer ${apiKey}` });

  it('answers from CLIP when the endpoint answers in time: uncalibrated, so no match and the raw similarity', async () => {
    const body = await readJson(await searchPrimary({ image_b64: b64(svg('simple-icons/nike.svg')), limit: 2 }));
    expect(body).toMatchObject({ degraded: false });
    expect(body.results[0].serial).toBe('US-E2E-1');
    // The query is the indexed picture itself: its raw cosine similarity is 1 (a calibrated score would not be).
    expect(body.results[0].score).toBeCloseTo(1, 3);
    expect(body.results.every((r: object) => !('match' in r))).toBe(true);
    expect(endpoint.invocations.length).toBeGreaterThan(0);
  });

  it('against a remote index, scores with the calibration fit for its window budget', async () => {
    // Two calibrations of the embedder (named "clip"): the full search's would call this answer "possible", the
    // remote one (first REMOTE_WINDOWS windows) "likely"; the remote index must be read with its own.
    const identity = { score: [0, 1], probability: [0, 1] };
    const strict = { plain: { weights: [1, 0, 0], bias: 0 }, busy: { weights: [1, 0, 0], bias: 0 }, curve: identity };
    const service = createLogoSearchService({
      batches: buildDataStores(stack.config).batches,
      indexes: new FolderUsearchIndexStore(stack.config.logos.indexDir),
      primary: {
        embedder: new SageMakerClipEmbedder(clientOf(endpoint), 'clip-e2e', { budgetMs: 3000 }),
        index: () => clipIndex,
      },
      calibrations: {
        clip: { ...strict, likely: 1, possible: 0 },
        [calibrationKey('clip', REMOTE_WINDOWS)]: { ...strict, likely: 0, possible: 0 },
      },
      primaryBudgetMs: 3000,
    });
    const answer = await service.search({ image_b64: b64(svg('simple-icons/nike.svg')), country: 'US', limit: 1 });
    expect(answer.degraded).toBe(false);
    expect(answer.results[0]).toMatchObject({ serial: 'US-E2E-1', match: 'likely' });
  });

  it('a throttled endpoint falls back too', async () => {
    endpoint.behaviour.throttle = true;
    expect((await readJson(await searchPrimary({ image_b64: b64(svg('simple-icons/3m.svg')) }))).degraded).toBe(true);
  });

  it.each([
    ['is slow (8 s)', { delayMs: 8000 }],
    ['answers 500', { failStatus: 500 }],
    ['answers 503', { failStatus: 503 }],
    ['reports a model error', { modelError: true }],
  ])('an endpoint that %s: the descriptor index answers, degraded, 5 points charged once', async (_what, behaviour) => {
    Object.assign(endpoint.behaviour, behaviour);
    const before = await balance();
    const response = await searchPrimary({ image_b64: b64(svg('simple-icons/nike.svg')), limit: 2 });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.degraded).toBe(true);
    expect(body.results[0].serial).toBe('US-E2E-1');
    expect(await balance()).toBe(before - 5);
    expect((await stack.deps.ledger.entries(accountId, { newestFirst: true, limit: 1 }))[0]).toMatchObject({
      points: 5,
      status: 'charged',
      operation: 'image-search',
    });
  });

  it('when neither path can answer: 503 and the charge refunded', async () => {
    endpoint.behaviour.failStatus = 500;
    const broken = createLogoSearchService({
      batches: buildDataStores(stack.config).batches,
      indexes: { load: async () => Promise.reject(new Error('index store down')), save: async () => undefined },
      primary: {
        embedder: new SageMakerClipEmbedder(
          new SageMakerRuntimeClient({
            region: 'us-east-1',
            endpoint: endpoint.url,
            credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
            maxAttempts: 1,
          }),
          'clip-e2e',
        ),
        index: () => clipIndex,
      },
      primaryBudgetMs: 400,
    });
    const handler = buildApiHandler(imageSearchOperation(broken), stack.deps);
    const brokenServer = await listen(
      createLocalApp({
        routes: [{ method: 'POST', path: '/v1/image-search', functionName: 'image-search', handler }],
        fallback: notFound,
      }),
      { port: 0 },
    );
    try {
      const before = await balance();
      const response = await post(
        `${brokenServer.url}/v1/image-search`,
        { image_b64: b64(svg('simple-icons/nike.svg')) },
        { Authorization: `Bearer ${apiKey}` },
      );
      expect(response.status).toBe(503);
      expect((await readJson(response)).error.code).toBe('service_unavailable');
      expect(await balance()).toBe(before);
    } finally {
      await brokenServer.close();
    }
  });
});

it('the process-wide search builds from config alone', () => {
  expect(buildLogoSearch(stack.config)).toHaveProperty('search');
});

describe("URL intake through the route (a loopback test server counts as public here, by the fetcher's test hook)", () => {
  // Refused URLs (this machine in every spelling, private ranges, schemes, redirects inward) are in
  // test/reliability/ssrf.test.ts; this is the one that is allowed out and never answers.
  let slow: Server;
  let routeServer: RunningServer;
  let slowPort = 0;

  beforeAll(async () => {
    slow = createServer(() => undefined); // accepts and never answers
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    slowPort = (slow.address() as { port: number }).port;
    const service = createLogoSearchService({
      batches: buildDataStores(stack.config).batches,
      indexes: new FolderUsearchIndexStore(stack.config.logos.indexDir),
      fetchOptions: { allowAddress: (address, port) => address === '127.0.0.1' && port === slowPort, timeoutMs: 500 },
    });
    const handler = buildApiHandler(imageSearchOperation(service), stack.deps);
    routeServer = await listen(
      createLocalApp({
        routes: [{ method: 'POST', path: '/v1/image-search', functionName: 'image-search', handler }],
        fallback: notFound,
      }),
      { port: 0 },
    );
  });
  afterAll(async () => {
    await routeServer?.close();
    slow?.closeAllConnections();
    await new Promise<void>((r) => slow.close(() => r()));
  });

  const viaRoute = (body: unknown) =>
    post(`${routeServer.url}/v1/image-search`, body, { Authorization: `Bearer ${apiKey}` });

  it('a slow URL times out as url_fetch_failed, without a charge', async () => {
    const before = await balance();
    const response = await viaRoute({ url: `http://127.0.0.1:${slowPort}/logo.png` });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.code).toBe('url_fetch_failed');
    expect(await balance()).toBe(before);
  });
});
