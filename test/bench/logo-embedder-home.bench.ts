/**
 * Where the learned logo embedder runs: in-process (onnxruntime-node in the Lambda) or behind a SageMaker endpoint.
 * `npx tsx test/bench/logo-embedder-home.bench.ts` measures, on one machine:
 *  - in-process: the model's load time, the RSS it adds, one picture embedded, and the windows region search cuts
 *    from a busy picture (the most it cuts from any picture) embedded in one batched run;
 *  - the SageMaker contract: the same model behind the local SageMaker-compatible endpoint server (loopback HTTP,
 *    SigV4-signed by the real SDK, PNG in JSON as the endpoint takes it), one call per window, all in parallel.
 *    Loopback has no network in it, so this is a lower bound on what an endpoint adds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { SageMakerClipEmbedder } from '../../shared/adapters/aws/sagemaker-embedder';
import { LearnedLogoEmbedder, LOGO_NET_MODEL } from '../../shared/adapters/local/learned-logo-embedder';
import { normalizeImage } from '../../shared/imaging/normalize-image';
import { candidateWindows, crop } from '../../shared/imaging/regions';
import { busyPicture } from '../../builders/logo-embedder/seller-pictures';
import { seededRandom } from '../../builders/synthetic-uspto/random';
import { startSageMakerEndpointServer } from '../support/sagemaker-endpoint-server';
import { machineLine, percentile, runAndWriteSection } from './bench-support';

const ROOT = path.join(__dirname, '../..');
const RUNS = 60;

async function timed(runs: number, call: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await call();
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

export async function benchEmbedderHome(): Promise<string> {
  const logo = await normalizeImage(readFileSync(path.join(ROOT, 'data/sample/logos/simple-icons/adidas.svg')));
  const picture = await normalizeImage(await busyPicture(seededRandom(1)));
  const regionWindows = candidateWindows(picture);
  const n = regionWindows.length;
  const rssBefore = process.memoryUsage().rss;
  const loadStarted = performance.now();
  const learned = await LearnedLogoEmbedder.load(path.join(ROOT, LOGO_NET_MODEL));
  const loadMs = performance.now() - loadStarted;
  await learned.embedWindows(picture, regionWindows);
  const rssAdded = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
  const single = await timed(RUNS, () => learned.embed(logo));
  const windows = await timed(RUNS, () => learned.embedWindows(picture, regionWindows));

  // The same model behind the SageMaker contract: the endpoint is handed 64 x 64 windows, one per call.
  const endpoint = await startSageMakerEndpointServer({ embedder: learned, endpointName: 'logo-net' });
  const client = new SageMakerRuntimeClient({
    region: 'us-east-1',
    endpoint: endpoint.url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const remote = new SageMakerClipEmbedder(client, 'logo-net');
  const crops = regionWindows.map((w) => crop(picture, w, 64));
  const remoteSingle = await timed(RUNS, () => remote.embed(crops[0]!).catch(() => undefined));
  const remoteWindows = await timed(RUNS / 2, () =>
    Promise.all(crops.map((c) => remote.embed(c).catch(() => undefined))),
  );
  client.destroy();
  await endpoint.close();
  await learned.close();

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return [
    `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npx tsx test/bench/logo-embedder-home.bench.ts\`.`,
    '',
    '| | p50 | p95 |',
    '|---|---:|---:|',
    `| in-process: one picture (64 x 64) | ${ms(percentile(single, 50))} | ${ms(percentile(single, 95))} |`,
    `| in-process: the ${n} windows of a busy picture, one batched run | ${ms(percentile(windows, 50))} | ${ms(percentile(windows, 95))} |`,
    `| SageMaker contract over loopback: one picture | ${ms(percentile(remoteSingle, 50))} | ${ms(percentile(remoteSingle, 95))} |`,
    `| SageMaker contract over loopback: ${n} windows, ${n} calls in parallel | ${ms(percentile(remoteWindows, 50))} | ${ms(percentile(remoteWindows, 95))} |`,
    '',
    `In-process the model loads in ${ms(loadMs)} and adds ${rssAdded.toFixed(0)} MB of RSS; the model file is ` +
      `${(readFileSync(path.join(ROOT, LOGO_NET_MODEL)).length / 2 ** 20).toFixed(1)} MB.`,
  ].join('\n');
}

if (require.main === module) runAndWriteSection('Where the logo embedder runs', benchEmbedderHome);
