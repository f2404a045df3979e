/**
 * Step 1 of `npm run train:logos`: the free logos of the simple-icons and devicon packages rendered to PNG for the
 * trainer, with the split of their brands and a set of text strips (words set in the system fonts) that the trainer
 * places beside logos.
 *
 * - simple-icons (CC0-1.0; icons whose own licence entry is anything else are left out): one design per brand, filled
 *   with the brand's colour.
 * - devicon (MIT): every SVG variant of a technology (original, plain, line, wordmarks): several designs per brand.
 * - Brand key: the name lower-cased with everything but letters and digits removed, so `React` of simple-icons and
 *   `react` of devicon are one brand. Split by brand: SHA-256 of `logo-split/1:<brand>`; 20% of brands are held out
 *   (never seen by training), plus every brand of the shipped sample logos (data/sample/logos). Held-out brands are
 *   divided again by the hash into `validation` (calibration and thresholds) and `test` (the figures reported).
 *
 * Output (not committed; rebuilt in about a minute): builders/logo-embedder/.cache/{logos,text}/*.png and
 * manifest.json.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { seededRandom } from '../synthetic-uspto/random';

export const CACHE = path.join(__dirname, '.cache');
const ROOT = path.join(__dirname, '../..');
const SIMPLE_ICONS = path.join(ROOT, 'node_modules/simple-icons');
const DEVICON = path.join(ROOT, 'node_modules/devicon/icons');
const RENDER_SIDE = 160;
const HOLDOUT_SHARE = 0.2;
const TEXT_STRIPS = 400;

export type Split = 'train' | 'validation' | 'test';

export interface LogoDesign {
  id: string;
  brand: string;
  title: string;
  source: 'simple-icons' | 'devicon';
  design: string;
  svg: string;
  png: string;
  split: Split;
}

export function brandKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function hashShare(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

export function splitOf(brand: string, sampleBrands: ReadonlySet<string>): Split {
  const share = hashShare(`logo-split/1:${brand}`);
  if (share >= HOLDOUT_SHARE && !sampleBrands.has(brand)) return 'train';
  return hashShare(`logo-split/1/held-out:${brand}`) < 0.5 ? 'validation' : 'test';
}

export function sampleBrands(): Set<string> {
  const lines = readFileSync(path.join(ROOT, 'data/sample/logos/logos.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  return new Set(
    lines.map((line) =>
      brandKey(path.basename((JSON.parse(line) as { file: string }).file, '.svg').replace(/-(original|plain)$/, '')),
    ),
  );
}

interface SimpleIcon {
  title: string;
  slug?: string;
  hex: string;
  license?: { type: string };
}

function slugOf(title: string): string {
  // simple-icons' own title-to-slug rule (README: "Usage"), used when the data gives no slug.
  return title
    .toLowerCase()
    .replace(/\+/g, 'plus')
    .replace(/\./g, 'dot')
    .replace(/&/g, 'and')
    .replace(/đ/g, 'd')
    .replace(/ħ/g, 'h')
    .replace(/ı/g, 'i')
    .replace(/ĸ/g, 'k')
    .replace(/ŀ/g, 'l')
    .replace(/ł/g, 'l')
    .replace(/ß/g, 'ss')
    .replace(/ŧ/g, 't')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]/g, '');
}

export function listDesigns(samples: ReadonlySet<string>): Omit<LogoDesign, 'png'>[] {
  const out: Omit<LogoDesign, 'png'>[] = [];
  const icons = JSON.parse(readFileSync(path.join(SIMPLE_ICONS, 'data/simple-icons.json'), 'utf8')) as SimpleIcon[];
  for (const icon of icons) {
    if (icon.license && icon.license.type !== 'CC0-1.0') continue;
    const slug = icon.slug ?? slugOf(icon.title);
    const file = path.join(SIMPLE_ICONS, 'icons', `${slug}.svg`);
    if (!existsSync(file)) continue;
    const brand = brandKey(slug);
    if (!brand) continue;
    const svg = readFileSync(file, 'utf8').replace('<svg ', `<svg fill="#${icon.hex}" `);
    out.push({
      id: `si-${slug}`,
      brand,
      title: icon.title,
      source: 'simple-icons',
      design: 'icon',
      svg,
      split: splitOf(brand, samples),
    });
  }
  for (const name of readdirSync(DEVICON).sort()) {
    const folder = path.join(DEVICON, name);
    const files = existsSync(folder)
      ? readdirSync(folder)
          .filter((f) => f.endsWith('.svg'))
          .sort()
      : [];
    const brand = brandKey(name);
    for (const file of files) {
      const svg = readFileSync(path.join(folder, file), 'utf8');
      if (svg.length > 60_000 || /<image|<script|foreignObject/i.test(svg)) continue;
      const design = file.slice(name.length + 1, -4) || 'original';
      out.push({
        id: `dev-${name}-${design}`,
        brand,
        title: name,
        source: 'devicon',
        design,
        svg,
        split: splitOf(brand, samples),
      });
    }
  }
  return out;
}

async function renderSvg(svg: string): Promise<Buffer | undefined> {
  try {
    const input = Buffer.from(svg);
    const { width = 24, height = 24 } = await sharp(input).metadata();
    const density = Math.min(20_000, (72 * RENDER_SIDE * 1.5) / Math.max(width, height));
    const png = await sharp(input, { density })
      .resize(RENDER_SIDE, RENDER_SIDE, { fit: 'inside' })
      .trim({ threshold: 1 })
      .png()
      .toBuffer();
    const stats = await sharp(png).stats();
    // A design that renders to nothing visible (all transparent) teaches nothing.
    return stats.channels[3] && stats.channels[3].max > 0 ? png : undefined;
  } catch {
    return undefined;
  }
}

const WORDS = [
  'new',
  'sale',
  'premium',
  'original',
  'quality',
  'official',
  'store',
  'free shipping',
  'best',
  'gift',
  'limited',
  'edition',
  'pro',
  'max',
  'ultra',
  'classic',
  'sport',
  'design',
  'made in',
  'size',
  'cotton',
  'men',
  'women',
  'kids',
  'home',
  'style',
  '2024',
  'collection',
  'authentic',
  'brand',
  'shop',
  'outdoor',
  'fashion',
  'luxury',
  'vintage',
];
const FONTS = [
  'DejaVu Sans',
  'DejaVu Serif',
  'Liberation Sans',
  'Liberation Serif',
  'DejaVu Sans Mono',
  'Liberation Sans Narrow',
];

async function renderTextStrips(folder: string): Promise<number> {
  const random = seededRandom(77);
  for (let i = 0; i < TEXT_STRIPS; i++) {
    const words = Array.from(
      { length: 1 + Math.floor(random() * 3) },
      () => WORDS[Math.floor(random() * WORDS.length)]!,
    );
    const text = random() < 0.5 ? words.join(' ').toUpperCase() : words.join(' ');
    const font = FONTS[Math.floor(random() * FONTS.length)]!;
    const weight = random() < 0.5 ? 'bold' : 'normal';
    const shade = Math.floor(random() * 90);
    const colour = random() < 0.7 ? `rgb(${shade},${shade},${shade})` : `hsl(${Math.floor(random() * 360)},70%,35%)`;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${text.length * 30 + 20}" height="60"><text x="10" y="44" ` +
      `font-family="${font}" font-weight="${weight}" font-size="40" fill="${colour}">${text}</text></svg>`;
    await sharp(Buffer.from(svg))
      .trim({ threshold: 1 })
      .png()
      .toFile(path.join(folder, `text-${i}.png`));
  }
  return TEXT_STRIPS;
}

export async function renderTrainingLogos(): Promise<LogoDesign[]> {
  mkdirSync(path.join(CACHE, 'logos'), { recursive: true });
  mkdirSync(path.join(CACHE, 'text'), { recursive: true });
  const designs: LogoDesign[] = [];
  const pending = listDesigns(sampleBrands());
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < pending.length) {
        const design = pending[next++]!;
        const png = await renderSvg(design.svg);
        if (!png) continue;
        const file = `logos/${design.id}.png`;
        writeFileSync(path.join(CACHE, file), png);
        designs.push({ ...design, svg: '', png: file });
      }
    }),
  );
  designs.sort((a, b) => a.id.localeCompare(b.id));
  const strips = await renderTextStrips(path.join(CACHE, 'text'));
  writeFileSync(
    path.join(CACHE, 'manifest.json'),
    JSON.stringify({ renderSide: RENDER_SIDE, textStrips: strips, designs }, null, 1),
  );
  return designs;
}

if (require.main === module) {
  const started = Date.now();
  renderTrainingLogos().then((designs) => {
    const count = (split: Split) => designs.filter((d) => d.split === split).length;
    const brands = (split: Split) => new Set(designs.filter((d) => d.split === split).map((d) => d.brand)).size;
    console.log(
      `rendered ${designs.length} designs in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        `train ${count('train')} (${brands('train')} brands), validation ${count('validation')} (${brands('validation')}), test ${count('test')} (${brands('test')})`,
    );
  });
}
