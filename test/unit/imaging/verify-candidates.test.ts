/**
 * The verification of region search (shared/imaging/verify-candidates.ts): a mark is scored against the crowd of its
 * own window, so a crowd of near-duplicate look-alikes that one window meets cannot outvote the true mark found in
 * another window. The search test runs the service's own search (regions, a real usearch index, the shipped
 * calibration) with an embedder that reads only colour, over a tiny index where the crowd is the most similar by
 * raw similarity: the true mark is first only because each window's crowd is read off.
 */
import { UsearchVectorIndex } from '../../../shared/adapters/local/usearch-vector-index';
import { LOGO_CALIBRATIONS } from '../../../shared/imaging/logo-calibrations';
import { candidateWindows, crop } from '../../../shared/imaging/regions';
import { searchLogos, type SearchPath } from '../../../shared/imaging/search-logos';
import {
  CROWD_FLOOR,
  CROWD_SHARE,
  crowdOf,
  VERIFY_RANK,
  verifiedScore,
  verifyCandidates,
} from '../../../shared/imaging/verify-candidates';
import type { Embedder, NormalizedImage, VectorMatch } from '../../../shared/ports';

const match = (serial: string, score: number): VectorMatch => ({
  serial,
  design: `${serial}.svg`,
  mark: serial,
  nice: [],
  isLive: true,
  score,
});

describe('verifyCandidates', () => {
  it('reads the crowd at the VERIFY_RANK-th best of a window, and none where fewer marks answered', () => {
    const full = Array.from({ length: 12 }, (_, i) => match(`M${i}`, 0.9 - i * 0.01));
    expect(crowdOf(full)).toBeCloseTo(0.9 - (VERIFY_RANK - 1) * 0.01, 9);
    expect(crowdOf(full.slice(0, VERIFY_RANK - 1))).toBe(0);
    // No crowd, or one below the floor (unrelated marks, not look-alikes): the verified score is the similarity.
    expect(verifiedScore(0.8, 0)).toBeCloseTo(0.8, 9);
    expect(verifiedScore(0.8, CROWD_FLOOR - 0.1)).toBeCloseTo(0.8, 9);
    expect(verifiedScore(0.95, 0.9)).toBeCloseTo(0.95 - CROWD_SHARE * (0.9 - CROWD_FLOOR), 9);
    expect(verifiedScore(0.1, 0.9)).toBe(0);
  });

  it('puts a mark that stands out of its window above a crowd that is more similar in another window', () => {
    const logoWindow = [match('TRUE', 0.8), ...Array.from({ length: 9 }, (_, i) => match(`OTHER${i}`, 0.3 - i * 0.01))];
    const textWindow = Array.from({ length: 10 }, (_, i) => match(`WORD${i}`, 0.95 - i * 0.005));
    const windows = [
      { x: 0, y: 0, w: 0.5, h: 0.5 },
      { x: 0.5, y: 0, w: 0.5, h: 0.5 },
    ];
    const found = verifyCandidates(windows, [logoWindow, textWindow]).sort((a, b) => b.score - a.score);
    // By similarity alone the crowd would come first.
    expect(Math.max(...textWindow.map((m) => m.score))).toBeGreaterThan(0.8);
    expect(found[0]).toMatchObject({ serial: 'TRUE', similarity: 0.8, window: windows[0] });
    expect(found.filter((m) => m.serial.startsWith('WORD')).every((m) => m.score < found[0]!.score)).toBe(true);
  });

  it('keeps each mark once, at the window where its verified score is best', () => {
    const a = [match('X', 0.7), ...Array.from({ length: 9 }, (_, i) => match(`A${i}`, 0.69))];
    const b = [match('X', 0.66), ...Array.from({ length: 9 }, (_, i) => match(`B${i}`, 0.1))];
    const windows = [
      { x: 0, y: 0, w: 1, h: 1 },
      { x: 0, y: 0, w: 0.6, h: 0.6 },
    ];
    const found = verifyCandidates(windows, [a, b]);
    const x = found.filter((m) => m.serial === 'X');
    expect(x).toHaveLength(1);
    expect(x[0]!.window).toEqual(windows[1]);
    expect(x[0]!.similarity).toBe(0.66);
  });
});

describe('region search with a crowd of look-alikes', () => {
  // A white picture with a red square (the logo) on the left and blue stripes (a line of text) on the right.
  const side = 224;
  const rgb = new Uint8Array(side * side * 3).fill(255);
  const paint = (x: number, y: number, colour: [number, number, number]) => rgb.set(colour, (y * side + x) * 3);
  for (let y = 80; y < 150; y++) for (let x = 16; x < 86; x++) paint(x, y, [220, 20, 20]);
  for (let y = 96; y < 134; y++) for (let x = 110; x < 212; x++) if (x % 8 < 5) paint(x, y, [20, 20, 220]);
  const picture: NormalizedImage = {
    width: side,
    height: side,
    rgb,
    content: { left: 0, top: 0, width: side, height: side },
  };

  // Reads the share of red and of blue ink in a window (and a little of neither, so no vector is zero).
  const colours = (image: NormalizedImage) => {
    let [red, blue] = [0, 0];
    for (let i = 0; i < image.rgb.length; i += 3) {
      if (image.rgb[i]! > 150 && image.rgb[i + 2]! < 100) red++;
      if (image.rgb[i + 2]! > 150 && image.rgb[i]! < 100) blue++;
    }
    const ink = Math.max(1, red + blue);
    const v = [red / ink, blue / ink, 0.05];
    const norm = Math.hypot(...v);
    return Float32Array.from(v.map((x) => x / norm));
  };
  const embedder: Embedder = {
    name: 'colours',
    dimensions: 3,
    embed: async (image) => colours(image),
    embedWindows: async (image, windows) => windows.map((w) => colours(crop(image, w, 64))),
  };
  const unit = (v: number[]) => {
    const norm = Math.hypot(...v);
    return Float32Array.from(v.map((x) => x / norm));
  };
  // The true mark: red, with some of neither. The crowd: a dozen near-duplicate wordmarks, all blue.
  const index = UsearchVectorIndex.fromVectors(3, [
    { vector: unit([0.85, 0, 0.53]), metadata: { serial: 'TRUE', design: 't', mark: 'True', nice: [], isLive: true } },
    ...Array.from({ length: 12 }, (_, i) => ({
      vector: unit([0.02 + i * 0.004, 1, 0.05 + i * 0.01]),
      metadata: { serial: `WORD${i}`, design: `w${i}`, mark: `Word ${i}`, nice: [], isLive: true },
    })),
  ]);
  const search = (path: SearchPath) =>
    searchLogos(
      {
        market: async () => ({ primary: path }),
        imageFromBase64: () => Buffer.alloc(1),
        imageFromUrl: async () => Buffer.alloc(1),
        normalize: async () => picture,
        dataAsOf: async () => '2026-11-28',
        coverage: async () => undefined,
        primaryBudgetMs: 5_000,
      },
      { image_b64: 'x', country: 'US', limit: 5, detail: true },
    );

  it('is more similar to a crowd member than to the true mark in some window (what makes the test bite)', async () => {
    const windows = candidateWindows(picture);
    expect(windows.length).toBeGreaterThan(2);
    const vectors = await embedder.embedWindows!(picture, windows);
    const best = new Map<string, number>();
    for (const vector of vectors)
      for (const m of await index.query(vector, { topK: 13 }))
        best.set(m.serial, Math.max(best.get(m.serial) ?? 0, m.score));
    const crowdBest = Math.max(...[...best].filter(([s]) => s !== 'TRUE').map(([, v]) => v));
    expect(crowdBest).toBeGreaterThan(best.get('TRUE')! + 0.05);
  });

  it('answers the true mark first, found at the logo, with and without the shipped calibration', async () => {
    for (const calibration of [undefined, LOGO_CALIBRATIONS['logo-net']!]) {
      const answer = await search({
        embedder,
        index,
        windows: candidateWindows,
        ...(calibration ? { calibration } : {}),
      });
      expect(answer.results[0]!.serial).toBe('TRUE');
      const region = answer.results[0]!.region!;
      expect(region.x + region.width).toBeLessThan(110);
    }
  });
});
