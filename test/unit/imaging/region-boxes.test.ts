/**
 * `region` in detail mode on pictures where the logo's box is known: a sample logo rendered with sharp and pasted at
 * a known place on a larger canvas (several sizes and offsets, beside other things, a wide picture, one far larger
 * than the normalised square, one stored sideways with an EXIF orientation, one light on a dark ground), searched
 * through the service's own search with the learned embedder (real onnxruntime-node) over an in-process index of 61
 * sample logos. The answer's box, in the picture's own pixels, must overlap the known box (intersection over union).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { LearnedLogoEmbedder, LOGO_NET_MODEL } from '../../../shared/adapters/local/learned-logo-embedder';
import { UsearchVectorIndex } from '../../../shared/adapters/local/usearch-vector-index';
import { LOGO_CALIBRATIONS } from '../../../shared/imaging/logo-calibrations';
import { INGEST_SVG_DEADLINE_MS, normalizeImage } from '../../../shared/imaging/normalize-image';
import { candidateWindows } from '../../../shared/imaging/regions';
import { searchLogos, type PictureRegion } from '../../../shared/imaging/search-logos';

const ROOT = path.join(__dirname, '../../..');
const ICONS = path.join(ROOT, 'data/sample/logos/simple-icons');
const BRANDS = [
  ...readdirSync(ICONS)
    .filter((f) => f.endsWith('.svg'))
    .sort()
    .slice(0, 60)
    .map((f) => f.replace(/\.svg$/, '')),
  'nike',
];

let embedder: LearnedLogoEmbedder;
let index: UsearchVectorIndex;

beforeAll(async () => {
  embedder = await LearnedLogoEmbedder.load(path.join(ROOT, LOGO_NET_MODEL));
  index = new UsearchVectorIndex(embedder.dimensions);
  for (const brand of BRANDS) {
    const vector = await embedder.embed(await normalizeImage(readFileSync(path.join(ICONS, `${brand}.svg`))));
    await index.put([{ vector, metadata: { serial: brand, design: brand, mark: brand, nice: [], isLive: true } }]);
  }
}, 60_000);
afterAll(() => embedder.close());

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The logo rendered to fit `side` x `side`, as a transparent PNG, with the box of its opaque pixels. */
async function logo(brand: string, side: number, colour?: string): Promise<{ png: Buffer; ink: Box }> {
  let svg = readFileSync(path.join(ICONS, `${brand}.svg`), 'utf8');
  if (colour) svg = svg.replace('<svg ', `<svg fill="${colour}" `);
  const { data, info } = await sharp(Buffer.from(svg), { density: 1200 })
    .resize(side, side, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let [x0, y0, x1, y1] = [info.width, info.height, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[(y * info.width + x) * 4 + 3]! > 64) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
  return { png, ink: { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } };
}

function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = ix * iy;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

async function search(picture: Buffer): Promise<{ serial: string; region: PictureRegion }[]> {
  const answer = await searchLogos(
    {
      market: async () => ({
        primary: { embedder, index, calibration: LOGO_CALIBRATIONS['logo-net']!, windows: candidateWindows },
      }),
      imageFromBase64: (text) => Buffer.from(text, 'base64'),
      imageFromUrl: async () => Buffer.alloc(0),
      normalize: (bytes) => normalizeImage(bytes, { svgDeadlineMs: INGEST_SVG_DEADLINE_MS }),
      dataAsOf: async () => '2026-11-28',
      coverage: async () => undefined,
      primaryBudgetMs: 60_000,
    },
    { image_b64: picture.toString('base64'), country: 'US', limit: 3, detail: true },
  );
  return answer.results.map((r) => ({ serial: r.serial, region: r.region! }));
}

/** A line of dark text as a PNG, `height` pixels high. */
async function text(words: string, height: number): Promise<Buffer> {
  const width = Math.round(words.length * height * 0.6);
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><text x="0" y="${Math.round(height * 0.8)}" font-family="DejaVu Sans" font-size="${height}" fill="#222">${words}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();
}

interface Case {
  brand: string;
  canvas: { width: number; height: number; background: string };
  side: number;
  at: { left: number; top: number };
  colour?: string;
  /** Other things on the picture, at their places. */
  extras?: () => Promise<sharp.OverlayOptions[]>;
}

const CASES: [string, Case][] = [
  [
    'a 300 px logo at (420, 180) of a 1200 x 800 picture, a caption below it',
    {
      brand: 'adidas',
      canvas: { width: 1200, height: 800, background: '#ffffff' },
      side: 300,
      at: { left: 420, top: 180 },
      extras: async () => [{ input: await text('Premium running shoes', 40), left: 380, top: 640 }],
    },
  ],
  [
    'a 120 px logo in the corner of a 640 x 480 picture, a line of text beside it',
    {
      brand: 'apple',
      canvas: { width: 640, height: 480, background: '#ffffff' },
      side: 120,
      at: { left: 24, top: 30 },
      extras: async () => [{ input: await text('for iPhone 15 case', 36), left: 200, top: 70 }],
    },
  ],
  [
    'a wide 1600 x 500 banner, the logo on the right, text on the left',
    {
      brand: 'acer',
      canvas: { width: 1600, height: 500, background: '#f4f4f4' },
      side: 360,
      at: { left: 1150, top: 70 },
      extras: async () => [{ input: await text('Laptop sale', 80), left: 60, top: 200 }],
    },
  ],
  [
    'a 3200 x 2400 photo-sized picture (downscaled 14 times by the normaliser), a 600 px logo at (2300, 1500)',
    {
      brand: 'algolia',
      canvas: { width: 3200, height: 2400, background: '#ffffff' },
      side: 600,
      at: { left: 2300, top: 1500 },
      extras: async () => [{ input: await text('Search as a service', 160), left: 200, top: 300 }],
    },
  ],
  [
    'a white logo on a navy 1000 x 700 picture',
    {
      brand: 'nike',
      canvas: { width: 1000, height: 700, background: '#141a3c' },
      side: 260,
      at: { left: 600, top: 340 },
      colour: '#ffffff',
    },
  ],
];

async function compose(c: Case): Promise<{ picture: Buffer; known: Box }> {
  const { png, ink } = await logo(c.brand, c.side, c.colour);
  const picture = await sharp({ create: { ...c.canvas, channels: 3, background: c.canvas.background } })
    .composite([...(c.extras ? await c.extras() : []), { input: png, left: c.at.left, top: c.at.top }])
    .png()
    .toBuffer();
  return { picture, known: { x: c.at.left + ink.x, y: c.at.top + ink.y, width: ink.width, height: ink.height } };
}

describe('each result says where its mark is, in the pixels of the picture as sent', () => {
  it.each(CASES)('%s', async (_name, c) => {
    const { picture, known } = await compose(c);
    const results = await search(picture);
    expect(results[0]!.serial).toBe(c.brand);
    expect(iou(results[0]!.region, known)).toBeGreaterThanOrEqual(0.8);
  });

  it('a picture stored sideways with EXIF orientation 6: the box is in the upright picture, as shown', async () => {
    const c = CASES[0]![1];
    const { picture, known } = await compose(c);
    // Stored rotated a quarter turn anticlockwise; orientation 6 tells a viewer to turn it clockwise to show it.
    const sideways = await sharp(picture).rotate(-90).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    const stored = await sharp(sideways).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([800, 1200, 6]);
    const results = await search(sideways);
    expect(results[0]!.serial).toBe(c.brand);
    expect(iou(results[0]!.region, known)).toBeGreaterThanOrEqual(0.8);
  });

  it('the box moves with the logo: the same logo at three places and two sizes on one canvas', async () => {
    for (const [left, top, side] of [
      [40, 40, 200],
      [700, 90, 200],
      [300, 420, 340],
    ] as const) {
      const c: Case = {
        brand: 'adidas',
        canvas: { width: 1100, height: 800, background: '#ffffff' },
        side,
        at: { left, top },
        extras: async () => [{ input: await text('sale', 50), left: left < 500 ? 900 : 60, top: 700 }],
      };
      const { picture, known } = await compose(c);
      const results = await search(picture);
      expect(results[0]!.serial).toBe('adidas');
      expect(iou(results[0]!.region, known)).toBeGreaterThanOrEqual(0.8);
    }
  });
});
