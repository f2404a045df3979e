/**
 * POST /v1/image-search over real HTTP on DynamoDB Local when the learned embedder's model cannot be loaded: a
 * corrupt model file (the real one cut short, then one with its bytes scrambled) and a path where no file is. The
 * service is built from config alone (shared/composition/logo-search.ts), as the function builds it, with real
 * onnxruntime-node and real sharp; the logos were ingested beforehand with the healthy model and the descriptor.
 * Every search must answer 200 from the descriptor index with `degraded: true`, charge its 5 points once, and emit
 * the `ModelUnloadable` metric and the warning an operator reads.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildLogoIngest, buildLogoSearch, MODEL_UNLOADABLE_MESSAGE } from '../../shared/composition/logo-search';
import { loadConfig } from '../../shared/config';
import { buildApiHandler } from '../../shared/http/api-handler';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { ingestLogos } from '../../shared/ingest/ingest-logos';
import { FileSystemBlobStore } from '../../shared/adapters/local/filesystem-blob-store';
import { LOGO_NET_MODEL } from '../../shared/adapters/local/learned-logo-embedder';
import { imageSearchOperation } from '../../functions/image-search/handler';
import { MODEL_UNLOADABLE_OUTCOME } from '../../functions/image-search/outcomes';
import { handler as notFound } from '../../functions/not-found/handler';
import { createLocalApp, listen, type RunningServer } from '../../local/server';
import { captureOutput, type CapturedOutput } from '../support/captured-output';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson } from '../support/test-server';

const LOGOS = path.join(__dirname, '../../data/sample/logos');
const BRANDS: [string, string][] = [
  ['adidas', 'adidas'],
  ['Nike', 'nike'],
  ['Apple', 'apple'],
  ['3M', '3m'],
];
// PNGs rendered once from the sample SVGs: no SVG rendering deadline in the way on a busy machine.
const pngs = new Map<string, Buffer>();
const png = (name: string) => pngs.get(name)!;

let stack: TestStack;
let apiKey: string;
let accountId: string;
let output: CapturedOutput | undefined;
const folder = mkdtempSync(path.join(os.tmpdir(), 'broken-models-'));
const real = readFileSync(path.join(__dirname, '../..', LOGO_NET_MODEL));
const models = {
  'cut short (the first half of the real file)': path.join(folder, 'truncated.onnx'),
  'scrambled (the real length, every byte changed)': path.join(folder, 'scrambled.onnx'),
  'missing (no file at the path)': path.join(folder, 'no-such-model.onnx'),
};
writeFileSync(models['cut short (the first half of the real file)'], real.subarray(0, real.length >> 1));
writeFileSync(
  models['scrambled (the real length, every byte changed)'],
  Buffer.from(real.map((byte, i) => ((byte * 31 + i) & 0xff) ^ 0x5a)),
);

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  for (const [, name] of BRANDS)
    pngs.set(
      name,
      await sharp(readFileSync(path.join(LOGOS, `simple-icons/${name}.svg`)), { density: 300 })
        .resize(256, 256, { fit: 'inside' })
        .png()
        .toBuffer(),
    );
  stack = await createTestStack();
  const stores = buildDataStores(stack.config);
  await ingestBatch(stores, {
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([
      BRANDS.map(([mark], i) => JSON.stringify({ serial: `US-MF-${i}`, mark, nice: [25], is_live: true })).join('\n'),
    ]),
    batchDate: '2026-11-20',
    source: 'e2e-model-failure',
    holder: 'e2e',
  });
  const logos = mkdtempSync(path.join(os.tmpdir(), 'logos-'));
  for (const [, name] of BRANDS) writeFileSync(path.join(logos, `${name}.png`), png(name));
  writeFileSync(
    path.join(logos, 'logos.jsonl'),
    BRANDS.map(([mark, name], i) =>
      JSON.stringify({
        serial: `US-MF-${i}`,
        mark,
        file: `${name}.png`,
        nice: [25],
        is_live: true,
        source: 'simple-icons',
      }),
    ).join('\n'),
  );
  // The healthy model and the descriptor, as ingest had them before the model went bad.
  const ingest = buildLogoIngest(stack.config);
  expect(ingest.embedders.map((e) => e.embedder.name).sort()).toEqual(['descriptor', 'logo-net']);
  const summary = await ingestLogos(ingest, {
    blobs: new FileSystemBlobStore(logos),
    manifestKey: 'logos.jsonl',
    market: 'US',
    batchDate: '2026-11-21',
    source: 'e2e-logos',
    holder: 'e2e',
  });
  expect(summary).toMatchObject({ complete: true, written: BRANDS.length });
  ({ apiKey, accountId } = await stack.openAccount({ points: 1000 }));
}, 120_000);
afterAll(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
});
afterEach(() => output?.restore());

/** The image-search route served by a service built from the stack's config with LOGO_MODEL_PATH set to `model`. */
async function serveWithModel(model: string): Promise<RunningServer> {
  const config = loadConfig({ ...stack.env, LOGO_MODEL_PATH: model });
  expect(config.logos.modelPath).toBe(model);
  const handler = buildApiHandler(imageSearchOperation(buildLogoSearch(config)), stack.deps);
  return listen(
    createLocalApp({
      routes: [{ method: 'POST', path: '/v1/image-search', functionName: 'image-search', handler }],
      fallback: notFound,
    }),
    { port: 0 },
  );
}

const balance = async () => (await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points;
const parsedLines = () =>
  output!
    .lines()
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

it('with the healthy model the learned path answers, not degraded, and no ModelUnloadable metric', async () => {
  const server = await serveWithModel(path.join(__dirname, '../..', LOGO_NET_MODEL));
  try {
    output = captureOutput();
    const response = await post(
      `${server.url}/v1/image-search`,
      { image_b64: png('nike').toString('base64'), limit: 2 },
      { Authorization: `Bearer ${apiKey}` },
    );
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body).toMatchObject({ degraded: false });
    expect(body.results[0]).toMatchObject({ serial: 'US-MF-1', mark: 'Nike' });
    expect(parsedLines().filter((l) => MODEL_UNLOADABLE_OUTCOME in l)).toEqual([]);
  } finally {
    await server.close();
  }
});

describe.each(Object.entries(models))('a model file %s', (_what, model) => {
  it('answers 200 from the descriptor index, degraded, charged once; the metric and the warning say why', async () => {
    const server = await serveWithModel(model);
    try {
      output = captureOutput();
      for (const [i, [mark, name]] of BRANDS.entries()) {
        const before = await balance();
        const response = await post(
          `${server.url}/v1/image-search`,
          { image_b64: png(name).toString('base64'), limit: 3, detail: true },
          { Authorization: `Bearer ${apiKey}` },
        );
        expect(response.status).toBe(200);
        const body = await readJson(response);
        expect(body).toMatchObject({ degraded: true, count: 3 });
        expect(body.results[0]).toMatchObject({ serial: `US-MF-${i}`, mark });
        expect(await balance()).toBe(before - 5);
      }
      const lines = parsedLines();
      const metrics = lines.filter((l) => '_aws' in l && MODEL_UNLOADABLE_OUTCOME in l);
      expect(metrics).toHaveLength(BRANDS.length);
      expect(metrics[0]).toMatchObject({ [MODEL_UNLOADABLE_OUTCOME]: 1, operation: 'image-search' });
      expect(lines.filter((l) => '_aws' in l && 'Degraded' in l)).toHaveLength(BRANDS.length);
      // One warning, not one per search: the load is retried once a minute at most.
      const warnings = lines.filter((l) => l.message === MODEL_UNLOADABLE_MESSAGE);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 'WARN', modelPath: model });
      expect(lines.filter((l) => l.message === 'request').map((l) => l.status)).toEqual(BRANDS.map(() => 200));
    } finally {
      await server.close();
    }
  });
});
