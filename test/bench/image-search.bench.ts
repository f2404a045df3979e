/**
 * Image search end to end with the local default (the learned logo embedder with region search over the in-process
 * index of the 320 sample logos): a 512 x 512 PNG posted as base64 through the real chain (auth, debit, decode,
 * normalise, embed the whole picture and the windows chosen for it, search, calibrate).
 *
 * `npx tsx test/bench/image-search.bench.ts --distractors DIR`: the same against a register-scale index (a folder of
 * logo indexes written by ingest, builders/logo-embedder/register-scale-logos.ts): its files are copied into the
 * server's index folder before the sample logos are ingested into them; the section is printed, not written.
 */
import sharp from 'sharp';
import { normalizeImage } from '../../shared/imaging/normalize-image';
import { candidateWindows } from '../../shared/imaging/regions';
import { busyPicture } from '../../builders/logo-embedder/seller-pictures';
import { seededRandom } from '../../builders/synthetic-uspto/random';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildLogoIngest } from '../../shared/composition/logo-search';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { loadSampleCorpus, loadSampleLogos } from '../../local/sample-corpus';
import { createTestStack } from '../support/test-stack';
import { post, startTestServer } from '../support/test-server';
import { machineLine, percentile } from './bench-support';

const REQUESTS = 100;

export async function benchImageSearch(options: { distractors?: string } = {}): Promise<string> {
  const engine = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  try {
    const stack = await createTestStack();
    const stores = buildDataStores(stack.config);
    await loadSampleCorpus(stores);
    const distractors = options.distractors;
    if (distractors)
      for (const file of readdirSync(distractors).filter((f) => /^US-.*\.usearch(\.json|\.meta)?$/.test(f)))
        copyFileSync(path.join(distractors, file), path.join(stack.config.logos.indexDir, file));
    await loadSampleLogos(buildLogoIngest(stack.config, stores));
    const server = await startTestServer(stack);
    const { apiKey } = await stack.openAccount({ points: 1_000_000 });
    const svg = readFileSync(path.join(__dirname, '../../data/sample/logos/simple-icons/nike.svg'));
    const png = await sharp(svg, { density: 300 })
      .resize(512, 512, { fit: 'contain', background: '#ffffff' })
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer();
    // The worst case too: the logo at 30% of a busy 512 px photo (no plain background), every window searched.
    const busyPng = await sharp(await busyPicture(seededRandom(3)))
      .composite([
        {
          input: await sharp(svg, { density: 150 }).resize(154, 154, { fit: 'inside' }).png().toBuffer(),
          left: 200,
          top: 120,
        },
      ])
      .png()
      .toBuffer();
    const pictures = [
      { name: 'logo on white', png },
      { name: 'logo at 30% on a busy photo', png: busyPng },
    ];
    const rows: string[] = [];
    let degraded = 0;
    for (const picture of pictures) {
      const body = JSON.stringify({ image_b64: picture.png.toString('base64'), limit: 10 });
      const windows = candidateWindows(await normalizeImage(picture.png)).length;
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
      latencies.sort((a, b) => a - b);
      rows.push(
        `| ${picture.name} (${Math.round(picture.png.length / 1024)} KB, ${windows} windows) | p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms |`,
      );
    }
    global.gc?.();
    const rss = process.memoryUsage().rss;
    await server.close();
    const command = distractors
      ? `npx tsx test/bench/image-search.bench.ts --distractors ${distractors}`
      : 'npm run bench -- "image search"';
    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`${command}\`.
${distractors ? `Index: the sample logos added to the register-scale indexes of ${distractors}. RSS of the process serving (server, handlers, both indexes, the model; DynamoDB Local apart) after the runs: ${Math.round(rss / 2 ** 20)} MB.\n` : ''}
Two 512 x 512 PNGs (base64 in JSON), each posted ${REQUESTS} times one after another after 10 warm-up calls, to the
local server: auth, rate limit, debit, decode and normalise with sharp, the learned embedder over the whole picture
and the windows chosen for it (one batched onnxruntime run, one thread), as many usearch queries over the ${distractors ? 'register-scale index and the ' : ''}320 sample logos, the calibration. The logo on white gets its blob windows and the 3 x 3 grid; the busy photo (the worst case)
every window there is. Aim: p50 at most 80 ms. Degraded answers (the descriptor took over): ${degraded} of ${pictures.length * (REQUESTS + 10)}.

| picture | end to end over HTTP |
|---|---|
${rows.join('\n')}
`;
  } finally {
    await engine.stop();
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { distractors: { type: 'string' } } });
  benchImageSearch(values.distractors ? { distractors: values.distractors } : {})
    .then((section) => {
      console.log(section);
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
