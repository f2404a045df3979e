/**
 * The held-out benchmark behind `npm run eval:logos` (test split) and the calibration (validation split).
 *
 * 1. The designs of the split's brands (render-logos.ts: brands training never saw) are read from the simple-icons
 *    and devicon packages. Brands are divided by a hash into registered (80%) and unregistered (20%).
 * 2. Every design of every registered brand is normalised from its SVG exactly as ingest does and embedded by each
 *    path's embedder into an in-process usearch index: one mark per brand, one vector per design.
 * 3. Queries: up to `queriesPerPerturbation` designs (seeded sample, registered and unregistered alike) are rendered
 *    at 400 px with transparency and perturbed as a seller's picture would be (seller-pictures.ts); each picture goes
 *    through the service's own search (`searchLogos`: normalise, regions, index, calibration) on one path.
 * 4. A query of a registered brand is a hit at k when its brand is among the first k marks.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { UsearchVectorIndex } from '../../shared/adapters/local/usearch-vector-index';
import { normalizeImage } from '../../shared/imaging/normalize-image';
import { searchLogos, type AnsweredMark, type LogoResult, type SearchPath } from '../../shared/imaging/search-logos';
import type { Embedder } from '../../shared/ports';
import { seededRandom } from '../synthetic-uspto/random';
import { listDesigns, sampleBrands, type Split } from './render-logos';
import { SELLER_PERTURBATIONS, type Perturbation } from './seller-pictures';

export interface BenchDesign {
  id: string;
  brand: string;
  svg: Buffer;
  png: Buffer;
}

export interface BenchMarks {
  registered: Map<string, BenchDesign[]>;
  unregistered: Map<string, BenchDesign[]>;
  /** Designs left out because the service refuses their SVG (external references and the like) or renders nothing. */
  skipped: number;
}

export function isRegistered(brand: string): boolean {
  return createHash('sha256').update(`logo-registered/1:${brand}`).digest().readUInt32BE(0) / 2 ** 32 < 0.8;
}

async function limited<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await run(items[i]!, i);
      }
    }),
  );
  return out;
}

export async function loadBenchMarks(split: Split): Promise<BenchMarks> {
  const designs = listDesigns(sampleBrands()).filter((d) => d.split === split);
  let skipped = 0;
  const rendered = await limited(designs, 4, async (design) => {
    const svg = Buffer.from(design.svg);
    try {
      await normalizeImage(svg);
      const { width = 24, height = 24 } = await sharp(svg).metadata();
      const density = Math.min(50_000, (72 * 400) / Math.max(width, height));
      const png = await sharp(svg, { density }).resize(400, 400, { fit: 'inside' }).png().toBuffer();
      return { id: design.id, brand: design.brand, svg, png };
    } catch {
      skipped++;
      return undefined;
    }
  });
  const registered = new Map<string, BenchDesign[]>();
  const unregistered = new Map<string, BenchDesign[]>();
  for (const design of rendered) {
    if (!design) continue;
    const into = isRegistered(design.brand) ? registered : unregistered;
    into.set(design.brand, [...(into.get(design.brand) ?? []), design]);
  }
  return { registered, unregistered, skipped };
}

/**
 * An in-process index of every design of every registered brand, for one embedder; added to `base` where given (an
 * index already holding other marks, as the register's crowd of distractors).
 */
export async function indexOf(
  embedder: Embedder,
  marks: Map<string, BenchDesign[]>,
  base?: UsearchVectorIndex,
): Promise<UsearchVectorIndex> {
  const index = base ?? new UsearchVectorIndex(embedder.dimensions);
  const items = await limited([...marks.values()].flat(), 2, async (design) => ({
    vector: await embedder.embed(await normalizeImage(design.svg)),
    metadata: { serial: design.brand, design: design.id, mark: design.brand, nice: [], isLive: true },
  }));
  await index.put(items);
  return index;
}

export interface BenchQuery {
  perturbation: string;
  group: 'file' | 'simple' | 'picture' | 'cross-design';
  brand: string;
  registered: boolean;
  results: LogoResult[];
  /** Every mark the search answered with its evidence, by similarity (what the calibration is fit on). */
  evidence?: AnsweredMark[];
  ms: number;
}

/** One picture through the service's search on one path. */
export async function ask(
  path: SearchPath,
  picture: Buffer,
  limit = 10,
): Promise<{ results: LogoResult[]; evidence: AnsweredMark[]; ms: number }> {
  const started = performance.now();
  let evidence: AnsweredMark[] = [];
  const answer = await searchLogos(
    {
      market: async () => ({ primary: path }),
      imageFromBase64: (text) => Buffer.from(text, 'base64'),
      imageFromUrl: async () => {
        throw new Error('no urls here');
      },
      normalize: (bytes) => normalizeImage(bytes),
      dataAsOf: async () => '2026-11-25',
      coverage: async () => undefined,
      primaryBudgetMs: 60_000,
    },
    { image_b64: picture.toString('base64'), country: 'US', limit, detail: true },
    { onEvidence: (marks) => (evidence = marks) },
  );
  return { results: answer.results, evidence, ms: performance.now() - started };
}

/** The seeded sample of query designs: registered and unregistered brands in their proportion. */
export function queryDesigns(
  marks: BenchMarks,
  count: number,
  seed: number,
): { design: BenchDesign; registered: boolean }[] {
  const all = [
    ...[...marks.registered.values()].flat().map((design) => ({ design, registered: true })),
    ...[...marks.unregistered.values()].flat().map((design) => ({ design, registered: false })),
  ];
  const random = seededRandom(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, count);
}

export async function runQueries(
  path: SearchPath,
  marks: BenchMarks,
  options: { queriesPerPerturbation: number; seed: number; perturbations?: typeof SELLER_PERTURBATIONS },
): Promise<BenchQuery[]> {
  const queries: BenchQuery[] = [];
  const sample = queryDesigns(marks, options.queriesPerPerturbation, options.seed);
  for (const [name, perturb, group] of options.perturbations ?? SELLER_PERTURBATIONS) {
    // Seeded by the perturbation's place in the full list: a run over some of them makes the same pictures.
    const p = SELLER_PERTURBATIONS.findIndex(([known]) => known === name);
    const answers = await limited(sample, 2, async ({ design, registered }, i) => {
      const picture = await (perturb as Perturbation)(
        design.png,
        seededRandom(options.seed * 1000 + p * 100_000 + i + 1),
      );
      return { perturbation: name, group, brand: design.brand, registered, ...(await ask(path, picture)) };
    });
    queries.push(...answers);
  }
  return queries;
}

/**
 * Cross-design: a brand with several designs, only its first design registered, queried with each other design (the
 * file itself). Returns the queries against an index that holds the first design of every registered brand (and
 * what `base` holds).
 */
export async function crossDesignQueries(
  path: Omit<SearchPath, 'index'>,
  marks: BenchMarks,
  limit: number,
  base?: UsearchVectorIndex,
): Promise<BenchQuery[]> {
  const firsts = new Map([...marks.registered].map(([brand, designs]) => [brand, designs.slice(0, 1)]));
  const index = await indexOf(path.embedder, firsts, base);
  const others = [...marks.registered]
    .flatMap(([brand, designs]) => designs.slice(1).map((design) => ({ brand, design })))
    .slice(0, limit);
  return limited(others, 2, async ({ brand, design }) => ({
    perturbation: 'another design of the mark',
    group: 'cross-design' as const,
    brand,
    registered: true,
    ...(await ask({ ...path, index }, design.png)),
  }));
}
