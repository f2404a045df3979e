/**
 * The sample logos and light perturbations of them, for the descriptor's tests and the logo search benchmark (the
 * held-out evaluation of what a seller faces is `npm run eval:logos`, test/bench/eval-logos.ts): retrieval of
 * perturbed copies of the sample logos by exact search, one embedder at a time.
 *
 *  1. Every logo of data/sample/logos/logos.jsonl is rendered from its SVG with sharp (400 px on its long side),
 *     normalised (flatten on white, trim, pad square, 224 x 224 RGB) and embedded: that is the index.
 *  2. Each logo is perturbed in each of the ways below (seeded, so runs are repeatable), normalised the same way
 *     and embedded; the query is exact (a dot product against every indexed vector), so this measures the embedder,
 *     not the vector index.
 *  3. recall@1 / recall@10: the share of queries whose own serial is first / among the first ten.
 *
 * The descriptor always runs; other embedders (CLIP via ONNX or SageMaker) are passed in `evaluateLogos({ embedders })`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Embedder, NormalizedImage } from '../../shared/ports';
import { normalizeImage } from '../../shared/imaging/normalize-image';
import { PerceptualDescriptorEmbedder } from '../../shared/imaging/perceptual-descriptor';
import { machineLine, runAndWriteSection } from './bench-support';
import { seededRandom } from '../../builders/synthetic-uspto/random';
import { recoloured } from '../../builders/logo-embedder/seller-pictures';

const LOGO_FOLDER = path.join(__dirname, '../../data/sample/logos');
const RENDER_SIZE = 400;
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

export interface SampleLogo {
  serial: string;
  mark: string;
  file: string;
}

export function loadSampleLogos(): SampleLogo[] {
  return readFileSync(path.join(LOGO_FOLDER, 'logos.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const { serial, mark, file } = JSON.parse(line) as SampleLogo;
      return { serial, mark, file };
    });
}

/** The logo's SVG rasterised to a PNG with transparency, RENDER_SIZE px on its long side. */
export async function renderSampleLogo(logo: SampleLogo, size = RENDER_SIZE): Promise<Buffer> {
  const svg = readFileSync(path.join(LOGO_FOLDER, logo.file));
  const { width = 24, height = 24 } = await sharp(svg).metadata();
  const density = Math.min(50_000, (72 * size) / Math.max(width, height));
  return sharp(svg, { density }).resize(size, size, { fit: 'inside' }).png().toBuffer();
}

/** The service's own intake normaliser (flatten on white, trim, pad square, 224 x 224 RGB). */
export async function normalizeForEval(encoded: Buffer): Promise<NormalizedImage> {
  return normalizeImage(encoded);
}

// ---------------------------------------------------------------------------------------------------------------
// Perturbations

export { seededRandom };

type Random = () => number;
export type Perturbation = (logo: Buffer, random: Random) => Promise<Buffer>;

async function onWhite(logo: Buffer): Promise<Buffer> {
  return sharp(logo).flatten({ background: WHITE }).png().toBuffer();
}

/** The logo resized to `scale` of its size, placed on a white square canvas at (left, top) fractions of the slack. */
async function placed(logo: Buffer, scale: number, left: number, top: number): Promise<Buffer> {
  const { width = 1, height = 1 } = await sharp(logo).metadata();
  const canvas = Math.max(width, height);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const small = await sharp(logo).resize(w, h).png().toBuffer();
  return sharp({ create: { width: canvas, height: canvas, channels: 4, background: WHITE } })
    .composite([{ input: small, left: Math.round((canvas - w) * left), top: Math.round((canvas - h) * top) }])
    .flatten({ background: WHITE })
    .png()
    .toBuffer();
}

/** Colours changed as the logo embedder's evaluation changes them (builders/logo-embedder/seller-pictures.ts). */
const recolour: Perturbation = async (logo, random) => onWhite(await recoloured(logo, random));

const invert: Perturbation = async (logo) =>
  sharp(await onWhite(logo))
    .negate({ alpha: false })
    .png()
    .toBuffer();

const scale: Perturbation = async (logo, random) => placed(logo, 0.6 + 0.3 * random(), 0.5, 0.5);

const shift: Perturbation = async (logo, random) => placed(logo, 0.75, random(), random());

const rotate: Perturbation = async (logo, random) => {
  const angle = (3 + 7 * random()) * (random() < 0.5 ? -1 : 1);
  return sharp(await onWhite(logo))
    .rotate(angle, { background: WHITE })
    .png()
    .toBuffer();
};

const jpeg30: Perturbation = async (logo) =>
  sharp(await onWhite(logo))
    .jpeg({ quality: 30 })
    .toBuffer();

/** A square "photo": a linear gradient between two nearby colours with Gaussian noise; the logo at 70-85% on it. */
const photoBackground: Perturbation = async (logo, random) => {
  const { width = 1, height = 1 } = await sharp(logo).metadata();
  const size = Math.round(Math.max(width, height) / (0.7 + 0.15 * random()));
  const from = [0, 1, 2].map(() => 110 + random() * 130);
  const to = from.map((c) => Math.max(0, Math.min(255, c + (random() - 0.5) * 90)));
  const angle = random() * 2 * Math.PI;
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = Math.max(0, Math.min(1, 0.5 + ((x / size - 0.5) * ux + (y / size - 0.5) * uy)));
      for (let c = 0; c < 3; c++) {
        const gaussian = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
        pixels[(y * size + x) * 3 + c] = Math.max(
          0,
          Math.min(255, Math.round(from[c]! + (to[c]! - from[c]!) * t + 10 * gaussian)),
        );
      }
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .composite([
      {
        input: logo,
        left: Math.round((size - width) * (0.3 + 0.4 * random())),
        top: Math.round((size - height) * (0.3 + 0.4 * random())),
      },
    ])
    .png()
    .toBuffer();
};

/** A 1% frame (4 px at 400 px) in a dark colour around the logo with a small white margin. */
const thinBorder: Perturbation = async (logo, random) => {
  const flat = await onWhite(logo);
  const { width = 1, height = 1 } = await sharp(flat).metadata();
  const margin = Math.round(0.06 * Math.max(width, height));
  const frame = Math.max(2, Math.round(0.01 * Math.max(width, height)));
  const shade = Math.round(random() * 80);
  const colour = { r: shade, g: shade, b: Math.round(shade + random() * 100), alpha: 1 };
  const padded = await sharp(flat)
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: WHITE })
    .png()
    .toBuffer();
  return sharp(padded)
    .extend({ top: frame, bottom: frame, left: frame, right: frame, background: colour })
    .png()
    .toBuffer();
};

export const PERTURBATIONS: [string, Perturbation][] = [
  ['recolour (hue rotation; monochrome painted)', recolour],
  ['colour inversion', invert],
  ['scale 60-90% on white', scale],
  ['shift (75% size, random place)', shift],
  ['rotation 3-10 degrees', rotate],
  ['JPEG quality 30', jpeg30],
  ['photo-like background', photoBackground],
  ['thin border', thinBorder],
];

// ---------------------------------------------------------------------------------------------------------------
// The evaluation

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await run(items[i]!, i);
      }
    }),
  );
  return results;
}

/** The normalised originals and, per perturbation, the normalised perturbed copies (same order as the logos). */
export interface EvalImages {
  logos: SampleLogo[];
  originals: NormalizedImage[];
  perturbed: Map<string, NormalizedImage[]>;
}

export async function buildEvalImages(logos: SampleLogo[] = loadSampleLogos()): Promise<EvalImages> {
  const rendered = await mapLimited(logos, 8, (logo) => renderSampleLogo(logo));
  const originals = await mapLimited(rendered, 8, (png) => normalizeForEval(png));
  const perturbed = new Map<string, NormalizedImage[]>();
  for (const [[name, perturb], p] of PERTURBATIONS.map((entry, index) => [entry, index] as const)) {
    perturbed.set(
      name,
      await mapLimited(rendered, 8, async (png, i) =>
        normalizeForEval(await perturb(png, seededRandom(1000 * p + i + 1))),
      ),
    );
  }
  return { logos, originals, perturbed };
}

export interface RecallRow {
  perturbation: string;
  queries: number;
  at1: number;
  at10: number;
}

/** Rank (0-based) of each query's own logo among the indexed originals, by exact dot product. */
export async function recallOf(embedder: Embedder, images: EvalImages): Promise<RecallRow[]> {
  const indexed = await Promise.all(images.originals.map((image) => embedder.embed(image)));
  const rows: RecallRow[] = [];
  for (const [perturbation, queries] of images.perturbed) {
    let at1 = 0;
    let at10 = 0;
    for (const [i, image] of queries.entries()) {
      const query = await embedder.embed(image);
      const scores = indexed.map((vector) => dot(vector, query));
      const own = scores[i]!;
      // Ties count against the query: rank = how many others score at least as high.
      const rank = scores.filter(
        (score, j) => j !== i && images.logos[j]!.serial !== images.logos[i]!.serial && score >= own,
      ).length;
      if (rank < 1) at1++;
      if (rank < 10) at10++;
    }
    rows.push({ perturbation, queries: queries.length, at1: at1 / queries.length, at10: at10 / queries.length });
  }
  const total = rows.reduce((sum, row) => sum + row.queries, 0);
  rows.push({
    perturbation: 'all perturbations',
    queries: total,
    at1: rows.reduce((sum, row) => sum + row.at1 * row.queries, 0) / total,
    at10: rows.reduce((sum, row) => sum + row.at10 * row.queries, 0) / total,
  });
  return rows;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

export async function evaluateLogos(options: { embedders?: Embedder[] } = {}): Promise<string> {
  const embedders = [new PerceptualDescriptorEmbedder(), ...(options.embedders ?? [])];
  const images = await buildEvalImages();
  const results = new Map<string, RecallRow[]>();
  for (const embedder of embedders) results.set(embedder.name, await recallOf(embedder, images));

  const names = [...results.keys()];
  const header = `| perturbation | queries | ${names.map((n) => `${n} recall@1 | ${n} recall@10`).join(' | ')} |`;
  const rule = `|---|---:|${names.map(() => '---:|---:').join('|')}|`;
  const first = results.get(names[0]!)!;
  const lines = first.map((row, r) => {
    const cells = names.map((n) => {
      const other = results.get(n)![r]!;
      return `${other.at1.toFixed(3)} | ${other.at10.toFixed(3)}`;
    });
    const label = row.perturbation === 'all perturbations' ? '**all perturbations**' : row.perturbation;
    return `| ${label} | ${row.queries} | ${cells.join(' | ')} |`;
  });
  return [
    `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npx tsx test/bench/sample-logos.ts\`.`,
    '',
    `${images.logos.length} sample logos (data/sample/logos: simple-icons and devicon SVGs rendered with sharp at ${RENDER_SIZE} px), ` +
      'normalised by the service normaliser (shared/imaging/normalize-image.ts) and indexed; each is queried once per perturbation ' +
      "(seeded), exact search over the indexed vectors; a hit is the query's own serial at rank 1 / within the top 10 " +
      '(ties count as misses). Embedders: ' +
      names.join(', ') +
      ' (CLIP rows appear when an endpoint or an ONNX file is configured).',
    '',
    header,
    rule,
    ...lines,
    '',
    'Perturbations: recolour = coloured parts hue-rotated 90-270 degrees, black/grey/white parts painted one random ' +
      'saturated hue; inversion = RGB negated on white (white logo on black); scale = 60-90% centred on white; shift = ' +
      '75% size at a random place; rotation = 3-10 degrees either way on white; JPEG quality 30 at 400 px; photo-like ' +
      'background = the logo at 70-85% over a noisy (sigma 10) linear gradient between two random mid-to-light colours; ' +
      'thin border = a 1% dark frame around a 6% white margin.',
  ].join('\n');
}

if (require.main === module)
  runAndWriteSection('Logo search quality: sample logos, light perturbations', evaluateLogos);
