import sharp from 'sharp';
import { contentProposals } from '../../../shared/imaging/content-proposals';
import { candidateWindows, hasContent, WHOLE } from '../../../shared/imaging/regions';
import { normalizeImage } from '../../../shared/imaging/normalize-image';
import type { ImageWindow, NormalizedImage } from '../../../shared/ports';

function image(size: number, paint: (x: number, y: number) => [number, number, number]): NormalizedImage {
  const rgb = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) rgb.set(paint(x, y), (y * size + x) * 3);
  return { width: size, height: size, rgb };
}

const contains = (w: ImageWindow, box: { x0: number; y0: number; x1: number; y1: number }) =>
  w.x <= box.x0 && w.y <= box.y0 && w.x + w.w >= box.x1 && w.y + w.h >= box.y1;

describe('content proposals', () => {
  it('draw a tight window around a logo set beside a line of text (real sharp rendering)', async () => {
    // A 120 px red disc, then a line of text 48 px high beside it: the picture a seller's listing shows.
    const logo = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><circle cx="60" cy="60" r="58" fill="#d02020"/><rect x="40" y="40" width="40" height="40" fill="#fff"/></svg>',
    );
    const text = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="560" height="64"><text x="0" y="48" font-family="DejaVu Sans" font-size="48" fill="#222">Premium cotton gift</text></svg>',
    );
    const picture = await sharp({ create: { width: 760, height: 120, channels: 3, background: '#fff' } })
      .composite([
        { input: await sharp(logo).png().toBuffer(), left: 0, top: 0 },
        { input: await sharp(text).png().toBuffer(), left: 160, top: 28 },
      ])
      .png()
      .toBuffer();
    const normalised = await normalizeImage(picture);
    const windows = contentProposals(normalised);
    // The logo spans x 0..120 of 760 (0..0.16 of the square), y 0.42..0.58 of the square.
    const logoBox = { x0: 0.01, y0: 0.43, x1: 0.15, y1: 0.57 };
    const tight = windows.filter((w) => contains(w, logoBox) && w.w < 0.25);
    expect(tight.length).toBeGreaterThanOrEqual(1);
    expect(windows.length).toBeLessThanOrEqual(8);
    for (const w of windows) {
      expect(w.x).toBeGreaterThanOrEqual(0);
      expect(w.y).toBeGreaterThanOrEqual(0);
      expect(w.x + w.w).toBeLessThanOrEqual(1 + 1e-9);
      expect(w.y + w.h).toBeLessThanOrEqual(1 + 1e-9);
    }
  });

  it('propose nothing for a busy picture with no plain background, nor for one blob filling the picture', () => {
    let seed = 7;
    const noise = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 256;
    };
    expect(contentProposals(image(96, () => [noise(), noise(), noise()]))).toEqual([]);
    expect(
      contentProposals(image(96, (x, y) => (x > 2 && y > 2 && x < 93 && y < 93 ? [0, 0, 0] : [255, 255, 255]))),
    ).toEqual([]);
  });

  it('find two separate marks as two windows', () => {
    const twoMarks = image(200, (x, y) =>
      (x > 20 && x < 60 && y > 80 && y < 120) || (x > 130 && x < 180 && y > 70 && y < 120)
        ? [0, 0, 200]
        : [255, 255, 255],
    );
    const windows = contentProposals(twoMarks);
    expect(windows.some((w) => contains(w, { x0: 0.11, y0: 0.41, x1: 0.3, y1: 0.6 }) && w.w < 0.3)).toBe(true);
    expect(windows.some((w) => contains(w, { x0: 0.66, y0: 0.36, x1: 0.9, y1: 0.6 }) && w.w < 0.35)).toBe(true);
  });
});

describe('windows with content', () => {
  // A wide picture squared on white: the content is a band across the middle.
  const band = image(100, (_, y) => (y >= 46 && y < 54 ? [(y * 37) % 256, 90, 20] : [255, 255, 255]));

  it('leave out windows of plain padding, keep windows over the content and always keep the whole picture', () => {
    expect(hasContent(band, { x: 0, y: 0, w: 0.35, h: 0.35 })).toBe(false);
    expect(hasContent(band, { x: 0.3, y: 0.3, w: 0.4, h: 0.4 })).toBe(true);
    const windows = candidateWindows(band);
    expect(windows[0]).toEqual(WHOLE);
    expect(windows.every((w, i) => i === 0 || hasContent(band, w))).toBe(true);
    expect(windows.length).toBeLessThan(1 + 9 + 4);
    // A busy picture (no plain background): no blob windows, the finer 0.45 and 0.35 grids instead.
    let seed = 11;
    const noise = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 256;
    };
    const busy = candidateWindows(image(96, () => [noise(), noise(), noise()]));
    expect(busy).toHaveLength(1 + 9 + 16 + 25);
    expect(busy.filter((w) => Math.abs(w.w - 0.45) < 1e-9)).toHaveLength(16);
    expect(busy.filter((w) => Math.abs(w.w - 0.35) < 1e-9)).toHaveLength(25);
    expect(windows.some((w) => Math.abs(w.w - 0.45) < 1e-9)).toBe(false);
    expect(windows.some((w) => Math.abs(w.w - 0.35) < 1e-9)).toBe(false);
    // A budget of ten windows (a remote index) keeps the whole picture and the 3 x 3 grid of a busy picture.
    const noisy = image(96, () => [noise(), noise(), noise()]);
    expect(candidateWindows(noisy, 10).map((w) => w.w)).toEqual([1, ...Array(9).fill(0.6)]);
    const blank = image(64, () => [255, 255, 255]);
    expect(candidateWindows(blank)).toEqual([WHOLE]);
  });
});
