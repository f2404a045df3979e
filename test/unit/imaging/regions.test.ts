import { CANDIDATE_WINDOWS, candidateWindows, crop, WHOLE } from '../../../shared/imaging/regions';
import { regionInPicture, searchLogos, type SearchPath } from '../../../shared/imaging/search-logos';
import { bestDesignPerMark } from '../../../shared/imaging/best-design-per-mark';
import type { Embedder, NormalizedImage, VectorIndex, VectorMatch } from '../../../shared/ports';

function image(size: number, paint: (x: number, y: number) => [number, number, number]): NormalizedImage {
  const rgb = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) rgb.set(paint(x, y), (y * size + x) * 3);
  return { width: size, height: size, rgb };
}

describe('candidate windows', () => {
  it('cover the whole picture first, then 3 x 3 windows of 0.6, all inside the picture', () => {
    expect(CANDIDATE_WINDOWS[0]).toEqual(WHOLE);
    expect(CANDIDATE_WINDOWS).toHaveLength(10);
    for (const w of CANDIDATE_WINDOWS) {
      expect(w.x).toBeGreaterThanOrEqual(0);
      expect(w.x + w.w).toBeLessThanOrEqual(1 + 1e-9);
      expect(w.y + w.h).toBeLessThanOrEqual(1 + 1e-9);
    }
  });

  it('crops by area average: a 2 x 2 checker of black and white averages to grey', () => {
    const checker = image(4, (x, y) => ((x + y) % 2 ? [255, 255, 255] : [0, 0, 0]));
    const out = crop(checker, WHOLE, 2);
    expect([...out.rgb]).toEqual(Array(12).fill(128));
    const corner = crop(
      image(10, (x, y) => (x < 5 && y < 5 ? [200, 0, 0] : [0, 0, 0])),
      { x: 0, y: 0, w: 0.5, h: 0.5 },
      5,
    );
    expect([...corner.rgb.subarray(0, 3)]).toEqual([200, 0, 0]);
    expect(corner.rgb.filter((_, i) => i % 3 === 0).every((v) => v === 200)).toBe(true);
  });

  it('crops exactly as adding up the source pixels under each output pixel would, for any window and size', () => {
    // The reference: every source pixel under an output pixel added up one by one.
    const byHand = (img: NormalizedImage, w: { x: number; y: number; w: number; h: number }, size: number) => {
      const out: number[] = [];
      const [stepX, stepY] = [(w.w * img.width) / size, (w.h * img.height) / size];
      for (let y = 0; y < size; y++) {
        const y0 = Math.min(img.height - 1, Math.floor(w.y * img.height + y * stepY));
        const y1 = Math.min(img.height, Math.max(y0 + 1, Math.ceil(w.y * img.height + (y + 1) * stepY)));
        for (let x = 0; x < size; x++) {
          const x0 = Math.min(img.width - 1, Math.floor(w.x * img.width + x * stepX));
          const x1 = Math.min(img.width, Math.max(x0 + 1, Math.ceil(w.x * img.width + (x + 1) * stepX)));
          for (let c = 0; c < 3; c++) {
            let sum = 0;
            for (let sy = y0; sy < y1; sy++)
              for (let sx = x0; sx < x1; sx++) sum += img.rgb[(sy * img.width + sx) * 3 + c]!;
            out.push(Math.round(sum / ((y1 - y0) * (x1 - x0))));
          }
        }
      }
      return out;
    };
    let seed = 5;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const noisy = image(97, () => [Math.floor(next() * 256), Math.floor(next() * 256), Math.floor(next() * 256)]);
    for (let k = 0; k < 40; k++) {
      const side = 0.05 + next() * 0.95;
      const window = { x: next() * (1 - side), y: next() * (1 - side), w: side, h: side };
      const size = [1, 7, 32, 64, 150][k % 5]!;
      expect([...crop(noisy, window, size).rgb]).toEqual(byHand(noisy, window, size));
    }
  });

  it('maps a window back to the pixels of the picture as sent (content box, padded square)', () => {
    // Content 200 x 100 at (50, 20): padded to a 200 square, 50 px above and below.
    const normalised: NormalizedImage = {
      ...image(4, () => [0, 0, 0]),
      content: { left: 50, top: 20, width: 200, height: 100 },
    };
    expect(regionInPicture(normalised, WHOLE)).toEqual({ x: 50, y: 20, width: 200, height: 100 });
    expect(regionInPicture(normalised, { x: 0.5, y: 0.25, w: 0.5, h: 0.5 })).toEqual({
      x: 150,
      y: 20,
      width: 100,
      height: 100,
    });
    expect(regionInPicture({ ...normalised, content: undefined }, WHOLE)).toBeUndefined();
  });
});

describe('the region search', () => {
  // An embedder that "sees" only red: its vector points at the red mark when the window is mostly red.
  const redness = (img: NormalizedImage) => {
    let red = 0;
    for (let i = 0; i < img.rgb.length; i += 3) if (img.rgb[i]! > 200 && img.rgb[i + 1]! < 60) red++;
    return red / (img.width * img.height);
  };
  const toVector = (img: NormalizedImage) => {
    const r = redness(img);
    return Float32Array.from([r, 1 - r]).map((v) => v / Math.hypot(r, 1 - r));
  };
  const embedder: Embedder = {
    name: 'red',
    dimensions: 2,
    embed: async (img) => toVector(img),
    embedWindows: async (img, windows) => windows.map((w) => toVector(crop(img, w, 32))),
  };
  const index: VectorIndex = {
    put: async () => undefined,
    query: async (vector) => [
      { serial: 'RED', design: 'red.svg', mark: 'Red', nice: [], isLive: true, score: vector[0]! },
    ],
  };
  // A red square in the top-left 30% of a 224 picture.
  const picture = image(224, (x, y) => (x < 67 && y < 67 ? [255, 0, 0] : [40, 120, 40]));
  const sources = {
    market: async () => ({ primary: { embedder, index, windows: candidateWindows } as SearchPath }),
    imageFromBase64: () => Buffer.alloc(1),
    imageFromUrl: async () => Buffer.alloc(1),
    normalize: async () => ({ ...picture, content: { left: 0, top: 0, width: 224, height: 224 } }),
    dataAsOf: async () => '2026-11-25',
    coverage: async () => undefined,
    primaryBudgetMs: 5_000,
  };

  it('scores the mark by its best window and returns that window as the region in detail mode', async () => {
    const whole = toVector(picture)[0]!;
    const answer = await searchLogos(sources, { image_b64: 'x', country: 'US', limit: 5, detail: true });
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]!.score).toBeGreaterThan(whole + 0.3);
    expect(answer.results[0]).not.toHaveProperty('match');
    const region = answer.results[0]!.region!;
    expect(region.x).toBeLessThan(20);
    expect(region.y).toBeLessThan(20);
    expect(region.width).toBeLessThan(120);
    const plain = await searchLogos(sources, { image_b64: 'x', country: 'US', limit: 5 });
    expect(plain.results[0]!.region).toBeUndefined();
  });
});

describe('bestDesignPerMark', () => {
  it('keeps the best design of each mark, by descending score', () => {
    const m = (serial: string, design: string, score: number): VectorMatch => ({
      serial,
      design,
      mark: serial,
      nice: [],
      isLive: true,
      score,
    });
    expect(bestDesignPerMark([m('A', 'a1', 0.5), m('B', 'b1', 0.7), m('A', 'a2', 0.9), m('A', 'a3', 0.1)])).toEqual([
      m('A', 'a2', 0.9),
      m('B', 'b1', 0.7),
    ]);
  });
});
