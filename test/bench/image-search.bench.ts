/**
 * Image search end to end with the local default (the learned logo embedder with region search over the in-process
 * index of the 320 sample logos): a 512 x 512 PNG posted as base64 through the real chain (auth, debit, decode,
 * normalise, embed the whole picture and the windows chosen for it, search, calibrate).
 */
import sharp from 'sharp';
import { normalizeImage } from '../../shared/imaging/normalize-image';
import { candidateWindows } from '../../shared/imaging/regions';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildLogoIngest } from '../../shared/composition/logo-search';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { loadSampleCorpus, loadSampleLogos } from '../../local/sample-corpus';
import { createTestStack } from '../support/test-stack';
import { post, startTestServer } from '../support/test-server';
import { machineLine, percentile } from './bench-support';

const REQUESTS = 100;

export async function benchImageSearch(): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const stack = await createTestStack();
    const stores = buildDataStores(stack.config);
    await loadSampleCorpus(stores);
    await loadSampleLogos(buildLogoIngest(stack.config, stores));
    const server = await startTestServer(stack);
    const { apiKey } = await stack.openAccount({ points: 1_000_000 });
    const svg = readFileSync(path.join(__dirname, '../../data/sample/logos/simple-icons/nike.svg'));
    const png = await sharp(svg, { density: 300 })
      .resize(512, 512, { fit: 'contain', background: '#ffffff' })
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer();
    const body = JSON.stringify({ image_b64: png.toString('base64'), limit: 10 });
    const windows = candidateWindows(await normalizeImage(png)).length;
    let degraded = 0;
    const send = async () => {
      const t0 = performance.now();
      const response = await post(`${server.url}/v1/image-search`, body, { Authorization: `Bearer ${apiKey}` });
      const answer = (await response.json()) as { degraded?: boolean };
      if (response.status !== 200) throw new Error(`image-search answered ${response.status}`);
      if (answer.degraded) degraded++;
      return performance.now() - t0;
    };
    for (let i = 0; i < 10; i++) await send();
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS; i++) latencies.push(await send());
    await server.close();
    latencies.sort((a, b) => a - b);
    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench -- "image search"\`.
A 512 x 512 PNG (${Math.round(png.length / 1024)} KB, base64 in JSON) posted ${REQUESTS} times one after another, after 10 warm-up calls, to
the local server: auth, rate limit, debit, decode and normalise with sharp, the learned embedder over the whole
picture and the windows chosen for it (${windows} in all for this picture: blobs and grid, one batched onnxruntime run,
one thread), as many usearch queries over the 320 sample logos, the calibration. Aim: p50 at most 80 ms. Degraded answers (the descriptor took over): ${degraded} of ${REQUESTS + 10}.

| measure | result |
|---|---|
| end to end over HTTP | p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms |
`;
  } finally {
    await engine.stop();
  }
}
