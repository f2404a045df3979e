/**
 * The perceptual logo descriptor: the in-process embedder that needs no model (the local default and the degraded
 * path's index). Pure TypeScript over the pixels of a NormalizedImage, so it runs the same in Lambda and locally.
 *
 * What it answers: "is this the same logo", under recolouring (including colour inversion), scaling, shifts, small
 * rotations, JPEG artefacts, a photo-like background and a thin border. It looks at the logo's shape, never its colours:
 *
 *  1. Working copy: the image is area-averaged to 112 x 112 (halves JPEG noise and the work).
 *  2. Content rectangle: the normaliser pads with white, so the bounding box of non-white pixels is where the picture
 *     lies (a photo or an inverted logo is a coloured rectangle inside white padding). A thin frame along its edge (a
 *     uniform, non-white line that differs from the colour a little further in) is peeled off.
 *  3. Background model: the colour of the rectangle's outermost ring, per side (median per channel), as a linear
 *     gradient across the rectangle. A side whose median is far from the whole ring's median is a side the logo itself
 *     touches (a baseline, a bar) and takes the ring's median instead.
 *  4. Ink and edges. Ink: the colour distance of each pixel from the background, soft-thresholded between two levels
 *     relative to the image's own contrast and the ring's noise; being a distance from the background it ignores the
 *     logo's colours, and an inverted logo gives the same ink when the background is recognised. Edges: the colour
 *     gradient (structure tensor over R, G, B, after a 3 x 3 box blur), clamped at the rectangle, soft-thresholded
 *     above the median gradient (the noise of a photo); unsigned orientation, so light-on-dark equals dark-on-light.
 *  5. Canonical frame: centroid and radius of gyration of the edges (the same for a logo and its inversion; the
 *     radius of gyration does not change under rotation, unlike a bounding box); maps are splatted onto a 32 x 32 grid
 *     spanning +-RADIUS_SPAN radii of gyration around the centroid (removes shifts, added margins and scale).
 *  6. Blocks, each square-rooted, mean-centred (unrelated logos come out near-orthogonal rather than all alike),
 *     L2-normalised and weighted, then concatenated and L2-normalised (cosine similarity = dot product):
 *       - fill: ink map 16 x 16 and 8 x 8 (weight 0.5 each: they depend on telling background from ink);
 *       - edge: edge map 8 x 8 (weight 1);
 *       - orientation: HOG-like 4 x 4 cells x 8 unsigned orientations, soft in angle and across cells (weight 1);
 *       - rings (rotation-invariant): ink and edge mass in 12 rings around the centroid, and in 3 ring groups a
 *         4-bin histogram of the angle between each edge and the radial direction (weight 0.5).
 *     256 + 64 + 64 + 128 + 36 = 548 dimensions.
 */
import type { Embedder, NormalizedImage } from '../ports';

const WORK = 112;
const GRID = 32;
/** The canonical window spans this many radii of gyration either side of the ink centroid. */
const RADIUS_SPAN = 1.9;
const RINGS = 12;
const RING_GROUPS = 3;
const ANGLE_BINS = 4;
const ORIENTATIONS = 8;
const HOG_CELLS = 4;

const FINE = 16;
const COARSE = 8;
const EDGE = 8;
const BLOCK_SIZES = {
  fill: FINE * FINE,
  fillCoarse: COARSE * COARSE,
  edge: EDGE * EDGE,
  orientation: HOG_CELLS * HOG_CELLS * ORIENTATIONS,
  rings: 2 * RINGS + RING_GROUPS * ANGLE_BINS,
} as const;

export type DescriptorBlock = keyof typeof BLOCK_SIZES;
export type DescriptorWeights = Record<DescriptorBlock, number>;

export const DEFAULT_DESCRIPTOR_WEIGHTS: DescriptorWeights = { fill: 0.5, fillCoarse: 0.5, edge: 1, orientation: 1, rings: 0.5 };

/** 256 + 64 + 64 + 128 + 36 = 548. */
export const DESCRIPTOR_DIMENSIONS = Object.values(BLOCK_SIZES).reduce((sum, size) => sum + size, 0);

export class PerceptualDescriptorEmbedder implements Embedder {
  readonly name = 'descriptor';
  readonly dimensions = DESCRIPTOR_DIMENSIONS;

  constructor(private readonly weights: DescriptorWeights = DEFAULT_DESCRIPTOR_WEIGHTS) {}

  async embed(image: NormalizedImage, options?: { signal?: AbortSignal }): Promise<Float32Array> {
    options?.signal?.throwIfAborted();
    return describeLogo(image, this.weights);
  }
}

/** The descriptor of one image (synchronous; the embedder wraps it). */
export function describeLogo(image: NormalizedImage, weights: DescriptorWeights = DEFAULT_DESCRIPTOR_WEIGHTS): Float32Array {
  if (image.width <= 0 || image.height <= 0 || image.rgb.length < image.width * image.height * 3) {
    throw new RangeError(`a ${image.width}x${image.height} RGB image needs ${image.width * image.height * 3} bytes, got ${image.rgb.length}`);
  }
  const work = toWorkingSize(image);
  const found = contentRect(work);
  if (!found) return blankDescriptor();
  const rect = peelFrame(work, found);
  const edges = edgesOf(work, rect);
  const frame = edges && frameOf(edges.strength);
  if (!edges || !frame) return blankDescriptor();
  const ink = inkOf(work, rect);
  const fillMap = canonicalMap(ink, frame);
  const edgeMap = canonicalMap(edges.strength, frame);
  const { orientation, rings } = orientationAndRings(edges, ink, frame);
  return assemble(
    { fill: pooled(fillMap, FINE), fillCoarse: pooled(fillMap, COARSE), edge: pooled(edgeMap, EDGE), orientation, rings },
    weights,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Working copy

interface Planes {
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
}

/** Area average to WORK x WORK (nearest sample when the input is smaller); a non-square input is stretched. */
function toWorkingSize(image: NormalizedImage): Planes {
  const { rgb, width, height } = image;
  const size = WORK * WORK;
  const r = new Float32Array(size);
  const g = new Float32Array(size);
  const b = new Float32Array(size);
  if (width >= WORK && height >= WORK) {
    const count = new Float32Array(size);
    const columnOf = new Int32Array(width);
    for (let x = 0; x < width; x++) columnOf[x] = Math.min(WORK - 1, Math.floor((x * WORK) / width));
    for (let y = 0; y < height; y++) {
      const row = Math.min(WORK - 1, Math.floor((y * WORK) / height)) * WORK;
      let p = y * width * 3;
      for (let x = 0; x < width; x++, p += 3) {
        const o = row + columnOf[x]!;
        r[o]! += rgb[p]!;
        g[o]! += rgb[p + 1]!;
        b[o]! += rgb[p + 2]!;
        count[o]! += 1;
      }
    }
    for (let o = 0; o < size; o++) {
      const c = count[o]!;
      r[o]! /= c;
      g[o]! /= c;
      b[o]! /= c;
    }
  } else {
    for (let y = 0; y < WORK; y++) {
      const sy = Math.min(height - 1, Math.floor(((y + 0.5) * height) / WORK));
      for (let x = 0; x < WORK; x++) {
        const sx = Math.min(width - 1, Math.floor(((x + 0.5) * width) / WORK));
        const p = (sy * width + sx) * 3;
        const o = y * WORK + x;
        r[o] = rgb[p]!;
        g[o] = rgb[p + 1]!;
        b[o] = rgb[p + 2]!;
      }
    }
  }
  return { r, g, b };
}

// ---------------------------------------------------------------------------------------------------------------
// 2-4. Content rectangle, frame, background, ink

interface Rect {
  x0: number;
  y0: number;
  x1: number; // inclusive
  y1: number; // inclusive
}

type Colour = [number, number, number];

const NOT_WHITE = 20;
const FRAME_MIN_CONTRAST = 48;
const FRAME_LINE_CONTRAST = 24;
const SIDE_OUTLIER = 80;

function distance(a: Colour, b: Colour): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function contentRect(work: Planes): Rect | undefined {
  let x0 = WORK;
  let y0 = WORK;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < WORK; y++) {
    for (let x = 0; x < WORK; x++) {
      const o = y * WORK + x;
      if (255 - Math.min(work.r[o]!, work.g[o]!, work.b[o]!) > NOT_WHITE) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1, y1 };
}

type Side = 'top' | 'bottom' | 'left' | 'right';
const SIDES: Side[] = ['top', 'bottom', 'left', 'right'];

/** Offsets of the pixels of the line `depth` pixels inside the rectangle's side. */
function lineOf(rect: Rect, side: Side, depth: number): number[] {
  const offsets: number[] = [];
  if (side === 'top' || side === 'bottom') {
    const y = side === 'top' ? rect.y0 + depth : rect.y1 - depth;
    for (let x = rect.x0; x <= rect.x1; x++) offsets.push(y * WORK + x);
  } else {
    const x = side === 'left' ? rect.x0 + depth : rect.x1 - depth;
    for (let y = rect.y0; y <= rect.y1; y++) offsets.push(y * WORK + x);
  }
  return offsets;
}

/** Median of values in [0, 255] through a 256-bin histogram. */
function median255(values: ArrayLike<number>, count = values.length): number {
  if (count === 0) return 255;
  const histogram = new Uint32Array(256);
  for (let i = 0; i < count; i++) histogram[Math.max(0, Math.min(255, Math.round(values[i]!)))]! += 1;
  const half = count / 2;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= half) return v;
  }
  return 255;
}

function medianColour(work: Planes, offsets: number[]): Colour {
  const pick = (plane: Float32Array) => median255(offsets.map((o) => plane[o]!));
  return [pick(work.r), pick(work.g), pick(work.b)];
}

function colourAt(work: Planes, o: number): Colour {
  return [work.r[o]!, work.g[o]!, work.b[o]!];
}

/** Removes a thin frame: outer lines that are uniform, not white, and unlike the colour a little further in. */
function peelFrame(work: Planes, rect: Rect): Rect {
  const peeled = { ...rect };
  for (const side of SIDES) {
    const extent = side === 'top' || side === 'bottom' ? rect.y1 - rect.y0 + 1 : rect.x1 - rect.x0 + 1;
    const reference = Math.max(3, Math.round(0.06 * extent));
    if (extent < 4 * reference) continue;
    const outer = lineOf(rect, side, 0);
    const outerColour = medianColour(work, outer);
    const innerColour = medianColour(work, lineOf(rect, side, reference));
    if (Math.min(...outerColour) > 255 - NOT_WHITE) continue;
    const uniform = outer.filter((o) => distance(colourAt(work, o), outerColour) < 40).length / outer.length;
    if (uniform < 0.8 || distance(outerColour, innerColour) < FRAME_MIN_CONTRAST) continue;
    let depth = 1;
    while (depth < reference - 1 && distance(medianColour(work, lineOf(rect, side, depth)), innerColour) > FRAME_LINE_CONTRAST) depth++;
    depth = Math.min(reference, depth + 1);
    if (side === 'top') peeled.y0 = rect.y0 + depth;
    if (side === 'bottom') peeled.y1 = rect.y1 - depth;
    if (side === 'left') peeled.x0 = rect.x0 + depth;
    if (side === 'right') peeled.x1 = rect.x1 - depth;
  }
  return peeled;
}

interface Background {
  centre: Colour;
  /** Change per unit of u (left to right) and v (top to bottom), u, v in [0, 1] across the rectangle. */
  du: Colour;
  dv: Colour;
}

function backgroundOf(work: Planes, rect: Rect): Background {
  const sides = Object.fromEntries(SIDES.map((side) => [side, lineOf(rect, side, 0)])) as Record<Side, number[]>;
  const ring = SIDES.flatMap((side) => sides[side]);
  const overall = medianColour(work, ring);
  const colourOfSide = (side: Side): Colour => {
    const colour = medianColour(work, sides[side]);
    return distance(colour, overall) > SIDE_OUTLIER ? overall : colour;
  };
  const [top, bottom, left, right] = SIDES.map(colourOfSide) as [Colour, Colour, Colour, Colour];
  const channel = (c: 0 | 1 | 2) => ({
    centre: (top[c] + bottom[c] + left[c] + right[c]) / 4,
    du: right[c] - left[c],
    dv: bottom[c] - top[c],
  });
  const [cr, cg, cb] = [channel(0), channel(1), channel(2)];
  return { centre: [cr.centre, cg.centre, cb.centre], du: [cr.du, cg.du, cb.du], dv: [cr.dv, cg.dv, cb.dv] };
}

/** The soft ink map at WORK x WORK (0 outside the content), or undefined for a blank image. */
function inkOf(work: Planes, rect: Rect): Float32Array {
  const background = backgroundOf(work, rect);
  const width = Math.max(1, rect.x1 - rect.x0);
  const height = Math.max(1, rect.y1 - rect.y0);
  const dist = new Float32Array(WORK * WORK);
  const inside: number[] = [];
  for (let y = rect.y0; y <= rect.y1; y++) {
    const v = (y - rect.y0) / height - 0.5;
    for (let x = rect.x0; x <= rect.x1; x++) {
      const u = (x - rect.x0) / width - 0.5;
      const o = y * WORK + x;
      const dr = work.r[o]! - (background.centre[0] + background.du[0] * u + background.dv[0] * v);
      const dg = work.g[o]! - (background.centre[1] + background.du[1] * u + background.dv[1] * v);
      const db = work.b[o]! - (background.centre[2] + background.du[2] * u + background.dv[2] * v);
      const d = Math.sqrt(dr * dr + dg * dg + db * db);
      dist[o] = d;
      inside.push(d);
    }
  }
  const ring = SIDES.flatMap((side) => lineOf(rect, side, 0)).map((o) => dist[o]!);
  ring.sort((a, b) => a - b);
  // The ring may be partly ink (the logo touches its bounding box): its lower quartile still sees only background;
  // for noise with a chi distribution (3 channels) 2.5 x the lower quartile is about its 95th percentile.
  const noise = 2.5 * (ring[Math.floor(ring.length * 0.25)] ?? 0);
  const contrast = quantile(inside, 0.99);
  const low = Math.min(0.3 * contrast, Math.max(noise + 6, 0.12 * contrast));
  const high = Math.max(low + 8, 0.45 * contrast);
  const ink = new Float32Array(WORK * WORK);
  for (let y = rect.y0; y <= rect.y1; y++) {
    for (let x = rect.x0; x <= rect.x1; x++) {
      const o = y * WORK + x;
      const t = (dist[o]! - low) / (high - low);
      ink[o] = t <= 0 ? 0 : t >= 1 ? 1 : t;
    }
  }
  return ink;
}

/** Colour distances are at most 255 * sqrt(3); colour gradients (two channels' differences) 255 * sqrt(6). */
const MAX_DISTANCE = 442;
const MAX_GRADIENT = 625;

/** Quantile through a histogram of unit bins (faster than sorting; a unit is far below any threshold used). */
function quantile(values: number[], q: number, max = MAX_DISTANCE): number {
  if (values.length === 0) return 0;
  const histogram = new Uint32Array(max + 1);
  for (const v of values) histogram[Math.min(max, Math.floor(v))]! += 1;
  const target = q * values.length;
  let seen = 0;
  for (let v = 0; v < histogram.length; v++) {
    seen += histogram[v]!;
    if (seen >= target) return v + 0.5;
  }
  return max;
}

// ---------------------------------------------------------------------------------------------------------------
// 4b. Edges: colour gradient (structure tensor over the three channels), polarity-free, clamped at the rectangle so
// the border between the picture and the white padding is not an edge.

interface Edges {
  /** Soft edge strength in [0, 1]. */
  strength: Float32Array;
  /** Unsigned orientation of the gradient in [0, pi). */
  orientation: Float32Array;
}

function boxBlur3(plane: Float32Array, rect: Rect): Float32Array {
  const tmp = new Float32Array(plane.length);
  const out = new Float32Array(plane.length);
  for (let y = rect.y0; y <= rect.y1; y++) {
    for (let x = rect.x0; x <= rect.x1; x++) {
      const o = y * WORK + x;
      tmp[o] = (plane[y * WORK + Math.max(rect.x0, x - 1)]! + plane[o]! + plane[y * WORK + Math.min(rect.x1, x + 1)]!) / 3;
    }
  }
  for (let y = rect.y0; y <= rect.y1; y++) {
    for (let x = rect.x0; x <= rect.x1; x++) {
      const o = y * WORK + x;
      out[o] = (tmp[Math.max(rect.y0, y - 1) * WORK + x]! + tmp[o]! + tmp[Math.min(rect.y1, y + 1) * WORK + x]!) / 3;
    }
  }
  return out;
}

function edgesOf(work: Planes, rect: Rect): Edges | undefined {
  // Clamped at the rectangle: the border of a photo, of an inverted logo's dark box or of a peeled frame against
  // the white padding is not an edge of the logo (the price: a filled square logo's own outline is not one either).
  const sampling = rect;
  const region = rect;
  const planes = [boxBlur3(work.r, sampling), boxBlur3(work.g, sampling), boxBlur3(work.b, sampling)];
  const magnitude = new Float32Array(WORK * WORK);
  const orientation = new Float32Array(WORK * WORK);
  const inside: number[] = [];
  for (let y = region.y0; y <= region.y1; y++) {
    const up = Math.max(sampling.y0, y - 1) * WORK;
    const down = Math.min(sampling.y1, y + 1) * WORK;
    for (let x = region.x0; x <= region.x1; x++) {
      const left = Math.max(sampling.x0, x - 1);
      const right = Math.min(sampling.x1, x + 1);
      let gxx = 0;
      let gyy = 0;
      let gxy = 0;
      for (const plane of planes) {
        const gx = plane[y * WORK + right]! - plane[y * WORK + left]!;
        const gy = plane[down + x]! - plane[up + x]!;
        gxx += gx * gx;
        gyy += gy * gy;
        gxy += gx * gy;
      }
      const o = y * WORK + x;
      const m = Math.sqrt(gxx + gyy);
      magnitude[o] = m;
      inside.push(m);
      let theta = 0.5 * Math.atan2(2 * gxy, gxx - gyy);
      if (theta < 0) theta += Math.PI;
      orientation[o] = theta;
    }
  }
  const contrast = quantile(inside, 0.99, MAX_GRADIENT);
  if (contrast < 16) return undefined;
  // Most of a logo's rectangle has no edge: the median is the noise of a photo-like background (0 on a clean logo).
  const noise = quantile(inside, 0.5, MAX_GRADIENT);
  const low = Math.min(0.3 * contrast, Math.max(2 * noise + 4, 0.1 * contrast));
  const high = Math.max(low + 8, 0.4 * contrast);
  const strength = new Float32Array(WORK * WORK);
  for (let y = region.y0; y <= region.y1; y++) {
    for (let x = region.x0; x <= region.x1; x++) {
      const o = y * WORK + x;
      const t = (magnitude[o]! - low) / (high - low);
      strength[o] = t <= 0 ? 0 : t >= 1 ? 1 : t;
    }
  }
  return { strength, orientation };
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Canonical frame (from the edges: the same for a logo and its inversion) and the blocks that live in it

interface Frame {
  cx: number;
  cy: number;
  /** Grid cells per working pixel. */
  scale: number;
}

function frameOf(weights: Float32Array): Frame | undefined {
  let mass = 0;
  let sx = 0;
  let sy = 0;
  for (let y = 0; y < WORK; y++) {
    for (let x = 0; x < WORK; x++) {
      const w = weights[y * WORK + x]!;
      mass += w;
      sx += w * x;
      sy += w * y;
    }
  }
  if (mass < 1) return undefined;
  const cx = sx / mass;
  const cy = sy / mass;
  let spread = 0;
  for (let y = 0; y < WORK; y++) {
    for (let x = 0; x < WORK; x++) {
      const w = weights[y * WORK + x]!;
      if (w > 0) spread += w * ((x - cx) ** 2 + (y - cy) ** 2);
    }
  }
  const gyration = Math.max(1, Math.sqrt(spread / mass));
  return { cx, cy, scale: GRID / (2 * RADIUS_SPAN * gyration) };
}

/** Bilinear splat of a WORK x WORK map onto the GRID x GRID canonical map, as a density (saturating at 1). */
function canonicalMap(values: Float32Array, frame: Frame): Float32Array {
  const map = new Float32Array(GRID * GRID);
  for (let y = 0; y < WORK; y++) {
    const gy = (y - frame.cy) * frame.scale + GRID / 2 - 0.5;
    const iy = Math.floor(gy);
    const fy = gy - iy;
    if (iy < -1 || iy >= GRID) continue;
    for (let x = 0; x < WORK; x++) {
      const w = values[y * WORK + x]!;
      if (w === 0) continue;
      const gx = (x - frame.cx) * frame.scale + GRID / 2 - 0.5;
      const ix = Math.floor(gx);
      const fx = gx - ix;
      if (ix < -1 || ix >= GRID) continue;
      splat(map, GRID, ix, iy, w * (1 - fx) * (1 - fy));
      splat(map, GRID, ix + 1, iy, w * fx * (1 - fy));
      splat(map, GRID, ix, iy + 1, w * (1 - fx) * fy);
      splat(map, GRID, ix + 1, iy + 1, w * fx * fy);
    }
  }
  // Density: divide by the working pixels per cell, so a small logo spread over many cells fills them too.
  const perCell = Math.max(1, 1 / (frame.scale * frame.scale));
  for (let i = 0; i < map.length; i++) map[i] = Math.min(1, map[i]! / perCell);
  return blur121(map, GRID);
}

function splat(map: Float32Array, size: number, x: number, y: number, w: number): void {
  if (x >= 0 && x < size && y >= 0 && y < size) map[y * size + x]! += w;
}

/** Separable [1 2 1] / 4 blur with clamped edges. */
function blur121(map: Float32Array, size: number): Float32Array {
  const tmp = new Float32Array(map.length);
  const out = new Float32Array(map.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const l = map[y * size + Math.max(0, x - 1)]!;
      const r = map[y * size + Math.min(size - 1, x + 1)]!;
      tmp[y * size + x] = (l + 2 * map[y * size + x]! + r) / 4;
    }
  }
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = tmp[Math.max(0, y - 1) * size + x]!;
      const d = tmp[Math.min(size - 1, y + 1) * size + x]!;
      out[y * size + x] = (u + 2 * tmp[y * size + x]! + d) / 4;
    }
  }
  return out;
}

function pooled(map: Float32Array, cells: number): Float32Array {
  const step = GRID / cells;
  const out = new Float32Array(cells * cells);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) out[Math.floor(y / step) * cells + Math.floor(x / step)]! += map[y * GRID + x]!;
  }
  return out;
}

/**
 * HOG-like grid and rotation-invariant rings, straight from the working-size edges placed in the canonical frame:
 * orientation votes are soft in angle and bilinear across cells.
 */
function orientationAndRings(edges: Edges, ink: Float32Array, frame: Frame): { orientation: Float32Array; rings: Float32Array } {
  const orientation = new Float32Array(BLOCK_SIZES.orientation);
  const rings = new Float32Array(BLOCK_SIZES.rings);
  const cellsPerGrid = HOG_CELLS / GRID;
  const ringWidth = (GRID / 2) * (1.25 / RINGS);
  for (let y = 0; y < WORK; y++) {
    for (let x = 0; x < WORK; x++) {
      const o = y * WORK + x;
      const strength = edges.strength[o]!;
      const fill = ink[o]!;
      if (strength === 0 && fill === 0) continue;
      const dx = (x - frame.cx) * frame.scale;
      const dy = (y - frame.cy) * frame.scale;
      const radius = Math.hypot(dx, dy);
      const ring = Math.min(RINGS - 1, Math.floor(radius / ringWidth));
      rings[ring]! += fill;
      if (strength === 0) continue;
      rings[RINGS + ring]! += strength;
      const theta = edges.orientation[o]!;
      if (radius > 0.5) {
        // |cos| of the angle between the gradient and the radial direction: the same after any rotation.
        const cosine = Math.abs(Math.cos(theta) * dx + Math.sin(theta) * dy) / radius;
        const bin = Math.min(ANGLE_BINS - 1, Math.floor(cosine * ANGLE_BINS));
        const group = Math.min(RING_GROUPS - 1, Math.floor((ring * RING_GROUPS) / RINGS));
        rings[2 * RINGS + group * ANGLE_BINS + bin]! += strength;
      }
      const cx = (dx + GRID / 2) * cellsPerGrid - 0.5;
      const cy = (dy + GRID / 2) * cellsPerGrid - 0.5;
      const ix = Math.floor(cx);
      const iy = Math.floor(cy);
      const fx = cx - ix;
      const fy = cy - iy;
      const position = (theta / Math.PI) * ORIENTATIONS - 0.5;
      const lower = Math.floor(position);
      const fraction = position - lower;
      const binLow = (lower + ORIENTATIONS) % ORIENTATIONS;
      const binHigh = (lower + 1) % ORIENTATIONS;
      for (const [cellX, wx] of [[ix, 1 - fx], [ix + 1, fx]] as const) {
        if (cellX < 0 || cellX >= HOG_CELLS) continue;
        for (const [cellY, wy] of [[iy, 1 - fy], [iy + 1, fy]] as const) {
          if (cellY < 0 || cellY >= HOG_CELLS) continue;
          const base = (cellY * HOG_CELLS + cellX) * ORIENTATIONS;
          orientation[base + binLow]! += strength * wx * wy * (1 - fraction);
          orientation[base + binHigh]! += strength * wx * wy * fraction;
        }
      }
    }
  }
  return { orientation, rings };
}

// ---------------------------------------------------------------------------------------------------------------
// 6. Assembly

/** Square root (tames dominant bins), mean-centred, L2-normalised, weighted. */
function finishBlock(block: Float32Array, weight: number): Float32Array {
  let mean = 0;
  for (let i = 0; i < block.length; i++) {
    block[i] = Math.sqrt(block[i]!);
    mean += block[i]!;
  }
  mean /= block.length;
  let norm = 0;
  for (let i = 0; i < block.length; i++) {
    block[i]! -= mean;
    norm += block[i]! ** 2;
  }
  const factor = norm > 0 ? weight / Math.sqrt(norm) : 0;
  for (let i = 0; i < block.length; i++) block[i]! *= factor;
  return block;
}

function assemble(blocks: Record<DescriptorBlock, Float32Array>, weights: DescriptorWeights): Float32Array {
  const out = new Float32Array(DESCRIPTOR_DIMENSIONS);
  let offset = 0;
  for (const name of Object.keys(BLOCK_SIZES) as DescriptorBlock[]) {
    out.set(finishBlock(blocks[name], weights[name]), offset);
    offset += BLOCK_SIZES[name];
  }
  return normalised(out);
}

function normalised(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm === 0) return blankDescriptor();
  const factor = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i]! *= factor;
  return vector;
}

/** A blank (or featureless) image: a fixed unit vector, so it still has a well-defined, unit-norm embedding. */
function blankDescriptor(): Float32Array {
  return new Float32Array(DESCRIPTOR_DIMENSIONS).fill(1 / Math.sqrt(DESCRIPTOR_DIMENSIONS));
}
