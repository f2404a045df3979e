/** Steps 2 to 4 (ink) of the perceptual descriptor (../perceptual-descriptor.ts): content rectangle, frame, background, ink. */
import { WORK } from './constants';
import type { Planes } from './working-copy';

// ---------------------------------------------------------------------------------------------------------------
// 2-4. Content rectangle, frame, background, ink

export interface Rect {
  x0: number;
  y0: number;
  x1: number; // inclusive
  y1: number; // inclusive
}

export type Colour = [number, number, number];

export const NOT_WHITE = 20;
export const FRAME_MIN_CONTRAST = 48;
export const FRAME_LINE_CONTRAST = 24;
export const SIDE_OUTLIER = 80;

export function distance(a: Colour, b: Colour): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

export function contentRect(work: Planes): Rect | undefined {
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

export type Side = 'top' | 'bottom' | 'left' | 'right';
export const SIDES: Side[] = ['top', 'bottom', 'left', 'right'];

/** Offsets of the pixels of the line `depth` pixels inside the rectangle's side. */
export function lineOf(rect: Rect, side: Side, depth: number): number[] {
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
export function median255(values: ArrayLike<number>, count = values.length): number {
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

export function medianColour(work: Planes, offsets: number[]): Colour {
  const pick = (plane: Float32Array) => median255(offsets.map((o) => plane[o]!));
  return [pick(work.r), pick(work.g), pick(work.b)];
}

export function colourAt(work: Planes, o: number): Colour {
  return [work.r[o]!, work.g[o]!, work.b[o]!];
}

/** Removes a thin frame: outer lines that are uniform, not white, and unlike the colour a little further in. */
export function peelFrame(work: Planes, rect: Rect): Rect {
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
    while (
      depth < reference - 1 &&
      distance(medianColour(work, lineOf(rect, side, depth)), innerColour) > FRAME_LINE_CONTRAST
    )
      depth++;
    depth = Math.min(reference, depth + 1);
    if (side === 'top') peeled.y0 = rect.y0 + depth;
    if (side === 'bottom') peeled.y1 = rect.y1 - depth;
    if (side === 'left') peeled.x0 = rect.x0 + depth;
    if (side === 'right') peeled.x1 = rect.x1 - depth;
  }
  return peeled;
}

export interface Background {
  centre: Colour;
  /** Change per unit of u (left to right) and v (top to bottom), u, v in [0, 1] across the rectangle. */
  du: Colour;
  dv: Colour;
}

export function backgroundOf(work: Planes, rect: Rect): Background {
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
export function inkOf(work: Planes, rect: Rect): Float32Array {
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
      ink[o] = t <= 0 ? 0 : Math.min(t, 1);
    }
  }
  return ink;
}

/** Colour distances are at most 255 * sqrt(3); colour gradients (two channels' differences) 255 * sqrt(6). */
export const MAX_DISTANCE = 442;
export const MAX_GRADIENT = 625;

/** Quantile through a histogram of unit bins (faster than sorting; a unit is far below any threshold used). */
export function quantile(values: number[], q: number, max = MAX_DISTANCE): number {
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
