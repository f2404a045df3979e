/**
 * Where in a picture a logo may be: the whole normalised image, windows drawn around what the picture shows, and a
 * fixed set of multi-scale windows over it.
 *
 * A seller's picture often shows the logo small (on a shirt, a box, a busy photo) or beside a line of text. The
 * learned embedder was trained on logos that fill 25-95% of its input (and on windows cut around a logo off
 * centre), so a logo at 30% of the picture is in reach of the whole image, and one at 15-30% is in reach of a window
 * half the picture's side. For one picture (`candidateWindows`):
 *   - the whole image;
 *   - on a plain background, a tight window around each separate blob or group of blobs (content-proposals.ts): a
 *     logo beside text, two logos side by side;
 *   - 3 x 3 windows of 0.6 (stride 0.2), so any logo up to about a third of the side sits well inside one of them
 *     (a logo printed on a product photographed on white is no blob of its own);
 *   - on a busy picture (no plain background, so no blobs stand apart), 4 x 4 windows of 0.45 (stride 0.183) and
 *     5 x 5 windows of 0.35 (stride 0.1625) as well: a logo at 30% of a cluttered photo fills one of them with
 *     little clutter around it. Not on a plain background, where the blob windows already hold each logo whole and
 *     smaller windows cut logos into parts that look like other marks: on the validation brands, the 4 x 4 grid on
 *     plain pictures moved no logo into the first ten and pushed unrelated marks above the right one (recall@1 of
 *     plain pictures 0.951 without it, 0.919 with it; registered vs unregistered AUROC 0.931 and 0.915);
 *   - minus the windows that show nothing (plain padding beside a wide picture), which would only find the
 *     registered designs that look blank.
 * At most 51 crops, embedded in one batched run; against a remote index the first REMOTE_WINDOWS (the whole
 * picture, the blob windows, the 3 x 3 grid), with a calibration fit on that search (logo-calibrations.ts). `eval:logos` measures what each part buys (the "text beside" and
 * "30% size" rows; BENCHMARKS.md).
 *
 * `crop` cuts a window out of the normalised image and resamples it to the embedder's input side with an area
 * average (every source pixel under an output pixel counts), so that a downscale does not alias.
 */
import type { ImageWindow, NormalizedImage } from '../ports';
import { contentProposals, plainBackground } from './content-proposals';
import { TRIM_THRESHOLD } from './normalize-image';

/**
 * Windows a search may ask of a remote index (S3 Vectors answers one query per window over the network, and an
 * index takes some hundreds of queries a second).
 */
export const REMOTE_WINDOWS = 10;

/** A window in fractions of the normalised square (0..1). */
export type Window = ImageWindow;

export const WHOLE: Window = { x: 0, y: 0, w: 1, h: 1 };

function grid(side: number, steps: number): Window[] {
  const stride = steps > 1 ? (1 - side) / (steps - 1) : 0;
  const out: Window[] = [];
  for (let j = 0; j < steps; j++)
    for (let i = 0; i < steps; i++) out.push({ x: i * stride, y: j * stride, w: side, h: side });
  return out;
}

/** The whole image first, then the 3 x 3 grid: the windows searched on any picture. */
export const CANDIDATE_WINDOWS: readonly Window[] = [WHOLE, ...grid(0.6, 3)];

/** Share of a window's pixels that must differ from its own middle colour for it to show anything. */
const MIN_CONTENT_SHARE = 0.01;

/**
 * Whether a window shows anything: at least MIN_CONTENT_SHARE of its pixels (read on a stride of 2) differ from the
 * window's median colour by more than the normaliser's trim threshold. A window of plain padding beside a wide
 * picture has nothing to match, and a blank input to the embedder lands near whatever registered design is blank.
 */
export function hasContent(image: NormalizedImage, window: Window): boolean {
  const { width, height, rgb } = image;
  const x0 = Math.floor(window.x * width);
  const y0 = Math.floor(window.y * height);
  const x1 = Math.min(width, Math.ceil((window.x + window.w) * width));
  const y1 = Math.min(height, Math.ceil((window.y + window.h) * height));
  // Two passes over the same pixels (every second row and column): the histograms, then the differing count.
  const histograms = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;
  let samples = 0;
  for (let y = y0; y < y1; y += 2) {
    for (let x = x0; x < x1; x += 2) {
      const i = (y * width + x) * 3;
      histograms[0][rgb[i]!]!++;
      histograms[1][rgb[i + 1]!]!++;
      histograms[2][rgb[i + 2]!]!++;
      samples++;
    }
  }
  if (samples === 0) return false;
  const median = histograms.map((histogram) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v]!;
      if (seen > samples >> 1) return v;
    }
    return 255;
  });
  const [r, g, b] = [median[0]!, median[1]!, median[2]!];
  let differing = 0;
  for (let y = y0; y < y1; y += 2) {
    for (let x = x0; x < x1; x += 2) {
      const i = (y * width + x) * 3;
      if (
        Math.abs(rgb[i]! - r) > TRIM_THRESHOLD ||
        Math.abs(rgb[i + 1]! - g) > TRIM_THRESHOLD ||
        Math.abs(rgb[i + 2]! - b) > TRIM_THRESHOLD
      )
        differing++;
    }
  }
  return differing >= MIN_CONTENT_SHARE * samples;
}

/** Windows of 0.45 (4 x 4) and 0.35 (5 x 5) for a busy picture, where no blob stands apart from its background. */
const BUSY_WINDOWS: readonly Window[] = [...grid(0.45, 4), ...grid(0.35, 5)];

/**
 * The windows searched for one picture, most telling first: the whole picture; on a plain background the windows
 * around its blobs (content-proposals.ts); the grid; on a busy picture the finer grid last; windows that show
 * nothing are left out. `max` keeps the first ones only (a remote index answers one query per window over the
 * network): the whole picture, the blob windows and the 3 x 3 grid come first.
 */
export function candidateWindows(image: NormalizedImage, max = Number.POSITIVE_INFINITY): Window[] {
  const plain = plainBackground(image) !== undefined;
  return [
    WHOLE,
    ...(plain ? contentProposals(image) : []),
    ...CANDIDATE_WINDOWS.slice(1),
    ...(plain ? [] : BUSY_WINDOWS),
  ]
    .filter((window, i) => i === 0 || hasContent(image, window))
    .slice(0, max);
}

/** The window of `image` resampled to `size` x `size` by area averaging. */
export function crop(image: NormalizedImage, window: Window, size: number): NormalizedImage {
  const { width, height } = image;
  const table = summedArea(image);
  const stride = (width + 1) * 3;
  const left = window.x * width;
  const top = window.y * height;
  const stepX = (window.w * width) / size;
  const stepY = (window.h * height) / size;
  // The source columns under each output column, the same for every row.
  const columns = new Int32Array(size * 2);
  for (let x = 0; x < size; x++) {
    const x0 = Math.min(width - 1, Math.floor(left + x * stepX));
    columns[2 * x] = x0;
    columns[2 * x + 1] = Math.min(width, Math.max(x0 + 1, Math.ceil(left + (x + 1) * stepX)));
  }
  const out = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const y0 = Math.min(height - 1, Math.floor(top + y * stepY));
    const y1 = Math.min(height, Math.max(y0 + 1, Math.ceil(top + (y + 1) * stepY)));
    const above = y0 * stride;
    const below = y1 * stride;
    for (let x = 0; x < size; x++) {
      const x0 = columns[2 * x]! * 3;
      const x1 = columns[2 * x + 1]! * 3;
      const n = ((y1 - y0) * (x1 - x0)) / 3;
      const o = (y * size + x) * 3;
      const a0 = above + x0;
      const a1 = above + x1;
      const b0 = below + x0;
      const b1 = below + x1;
      out[o] = Math.round((table[b1]! - table[a1]! - table[b0]! + table[a0]!) / n);
      out[o + 1] = Math.round((table[b1 + 1]! - table[a1 + 1]! - table[b0 + 1]! + table[a0 + 1]!) / n);
      out[o + 2] = Math.round((table[b1 + 2]! - table[a1 + 2]! - table[b0 + 2]! + table[a0 + 2]!) / n);
    }
  }
  return { width: size, height: size, rgb: out };
}

const SUMMED_AREAS = new WeakMap<Uint8Array, Uint32Array>();

/**
 * The picture's summed-area table, worked out once per picture (a search cuts up to 51 windows from it): entry
 * ((y * (width + 1) + x) * 3 + c) is the sum of channel c over the rows above y and the columns left of x, so any
 * rectangle's sum is four reads. Integer sums, so a crop is the same bytes as adding up its pixels one by one.
 */
function summedArea(image: NormalizedImage): Uint32Array {
  const known = SUMMED_AREAS.get(image.rgb);
  if (known) return known;
  const { width, height, rgb } = image;
  const stride = (width + 1) * 3;
  const table = new Uint32Array((height + 1) * stride);
  for (let y = 0; y < height; y++) {
    const row = (y + 1) * stride;
    let [r, g, b] = [0, 0, 0];
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const o = row + (x + 1) * 3;
      r += rgb[i]!;
      g += rgb[i + 1]!;
      b += rgb[i + 2]!;
      table[o] = table[o - stride]! + r;
      table[o + 1] = table[o + 1 - stride]! + g;
      table[o + 2] = table[o + 2 - stride]! + b;
    }
  }
  SUMMED_AREAS.set(image.rgb, table);
  return table;
}
