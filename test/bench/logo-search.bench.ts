/**
 * Logo search speed: the perceptual descriptor's computation time per image, and usearch HNSW search over 100,000
 * vectors of the descriptor's dimension (query time and recall@10 against exact brute-force search).
 * `LOGO_BENCH_VECTORS` sets the index size (default 100,000). Runnable alone: `npx tsx test/bench/logo-search.bench.ts`.
 */
import { exactSearch, MetricKind } from 'usearch';
import { UsearchVectorIndex } from '../../shared/adapters/local/usearch-vector-index';
import { DESCRIPTOR_DIMENSIONS, PerceptualDescriptorEmbedder } from '../../shared/imaging/perceptual-descriptor';
import type { LogoMetadata, NormalizedImage } from '../../shared/ports';
import { machineLine, percentile } from './bench-support';
import { loadSampleLogos, normalizeForEval, PERTURBATIONS, renderSampleLogo, seededRandom } from './sample-logos';

const QUERIES = 500;
const RECALL_QUERIES = 200;

/**
 * Perturbed-real vectors: a real descriptor, mixed with a second one (weight 0-0.6) and Gaussian noise (about 0.5 of
 * its norm), L2-normalised. They share the structure of real descriptors (pure random unit vectors in 548 dimensions
 * have no neighbours worth the name: every pair is near-orthogonal, which no real collection looks like).
 */
function perturbedRealVectors(real: Float32Array[], count: number, seed: number): Float32Array[] {
  const random = seededRandom(seed);
  const dimensions = real[0]!.length;
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: count }, () => {
    const a = real[Math.floor(random() * real.length)]!;
    const b = real[Math.floor(random() * real.length)]!;
    const mix = 0.6 * random();
    const noise = 0.5 / Math.sqrt(dimensions);
    const vector = new Float32Array(dimensions);
    let norm = 0;
    for (let i = 0; i < dimensions; i++) {
      vector[i] = a[i]! + mix * b[i]! + noise * gaussian();
      norm += vector[i]! ** 2;
    }
    const factor = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) vector[i]! *= factor;
    return vector;
  });
}

async function descriptorTimes(): Promise<{
  images: number;
  p50: number;
  p99: number;
  mean: number;
  vectors: Float32Array[];
}> {
  const embedder = new PerceptualDescriptorEmbedder();
  const logos = loadSampleLogos().slice(0, 120);
  const images: NormalizedImage[] = [];
  for (const [i, logo] of logos.entries()) {
    const png = await renderSampleLogo(logo);
    images.push(await normalizeForEval(png));
    const [, perturb] = PERTURBATIONS[i % PERTURBATIONS.length]!;
    images.push(await normalizeForEval(await perturb(png, seededRandom(i + 1))));
  }
  for (const image of images.slice(0, 20)) await embedder.embed(image); // warm-up (JIT)
  const times: number[] = [];
  const vectors: Float32Array[] = [];
  for (let round = 0; round < 3; round++) {
    for (const image of images) {
      const t0 = performance.now();
      const vector = await embedder.embed(image);
      times.push(performance.now() - t0);
      if (round === 0) vectors.push(vector);
    }
  }
  times.sort((a, b) => a - b);
  return {
    images: images.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((s, t) => s + t, 0) / times.length,
    vectors,
  };
}

export async function benchLogoSearch(count = Number(process.env.LOGO_BENCH_VECTORS ?? 100_000)): Promise<string> {
  const descriptor = await descriptorTimes();

  const dimensions = DESCRIPTOR_DIMENSIONS;
  const vectors = perturbedRealVectors(descriptor.vectors, count, 11);
  const metadata = (i: number): LogoMetadata => ({
    serial: `B-${i}`,
    design: 'logo.svg',
    mark: `mark ${i}`,
    nice: [String((i % 45) + 1).padStart(2, '0')],
    isLive: i % 4 !== 0,
  });
  const buildStarted = performance.now();
  const index = UsearchVectorIndex.fromVectors(
    dimensions,
    vectors.map((vector, i) => ({ vector, metadata: metadata(i) })),
  );
  const buildSeconds = (performance.now() - buildStarted) / 1000;

  const queries = perturbedRealVectors(descriptor.vectors, QUERIES, 23);
  for (const query of queries.slice(0, 20)) await index.query(query, { topK: 10 });
  const times: number[] = [];
  const filteredTimes: number[] = [];
  const found: string[][] = [];
  for (const query of queries) {
    const t0 = performance.now();
    const matches = await index.query(query, { topK: 10 });
    times.push(performance.now() - t0);
    found.push(matches.map((m) => m.serial));
    const t1 = performance.now();
    await index.query(query, { topK: 10, nice: '09', liveOnly: true });
    filteredTimes.push(performance.now() - t1);
  }
  times.sort((a, b) => a - b);
  filteredTimes.sort((a, b) => a - b);

  const dataset = new Float32Array(count * dimensions);
  vectors.forEach((vector, i) => {
    dataset.set(vector, i * dimensions);
  });
  let hits = 0;
  for (let q = 0; q < RECALL_QUERIES; q++) {
    const exact = exactSearch(dataset, queries[q]!, dimensions, 10, MetricKind.Cos);
    const truth = new Set(Array.from(exact.keys as BigUint64Array, (key) => `B-${key}`));
    hits += found[q]!.filter((serial) => truth.has(serial)).length;
  }
  const recall = hits / (RECALL_QUERIES * 10);

  return [
    `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npx tsx test/bench/logo-search.bench.ts\`.`,
    '',
    `| measure | value |`,
    `|---|---:|`,
    `| descriptor per image (${descriptor.images} normalised 224 x 224 sample logos and perturbed copies, x3) p50 | ${descriptor.p50.toFixed(2)} ms |`,
    `| descriptor per image p99 | ${descriptor.p99.toFixed(2)} ms |`,
    `| descriptor per image mean | ${descriptor.mean.toFixed(2)} ms |`,
    `| usearch HNSW build, ${count.toLocaleString('en-US')} perturbed-real vectors x ${dimensions} dims (f32, cos, M=16) | ${buildSeconds.toFixed(1)} s |`,
    `| usearch query topK 10, p50 | ${percentile(times, 50).toFixed(3)} ms |`,
    `| usearch query topK 10, p99 | ${percentile(times, 99).toFixed(3)} ms |`,
    `| usearch query topK 10 with nice + liveOnly filter (over-fetch), p50 / p99 | ${percentile(filteredTimes, 50).toFixed(3)} / ${percentile(filteredTimes, 99).toFixed(3)} ms |`,
    `| recall@10 vs exact search (${RECALL_QUERIES} queries) | ${recall.toFixed(3)} |`,
    '',
    'Vectors: perturbed-real descriptors (see perturbedRealVectors). The filtered query over-fetches and doubles until ' +
      'topK pass; this filter keeps about 1 vector in 60, so it fetches thousands of candidates.',
  ].join('\n');
}

if (require.main === module) {
  benchLogoSearch()
    .then((section) => console.log(section))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
