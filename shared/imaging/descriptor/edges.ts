/** Step 4 (edges) of the perceptual descriptor (../perceptual-descriptor.ts): colour gradients of the content. */
import { WORK } from './constants';
import type { Planes } from './working-copy';
import { type Rect, MAX_GRADIENT, quantile } from './content-and-ink';

// ---------------------------------------------------------------------------------------------------------------
// 4b. Edges: colour gradient (structure tensor over the three channels), polarity-free, clamped at the rectangle so
// the border between the picture and the white padding is not an edge.

export interface Edges {
  /** Soft edge strength in [0, 1]. */
  strength: Float32Array;
  /** Unsigned orientation of the gradient in [0, pi). */
  orientation: Float32Array;
}

export function boxBlur3(plane: Float32Array, rect: Rect): Float32Array {
  const tmp = new Float32Array(plane.length);
  const out = new Float32Array(plane.length);
  for (let y = rect.y0; y <= rect.y1; y++) {
    for (let x = rect.x0; x <= rect.x1; x++) {
      const o = y * WORK + x;
      tmp[o] =
        (plane[y * WORK + Math.max(rect.x0, x - 1)]! + plane[o]! + plane[y * WORK + Math.min(rect.x1, x + 1)]!) / 3;
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

export function edgesOf(work: Planes, rect: Rect): Edges | undefined {
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
      strength[o] = t <= 0 ? 0 : Math.min(t, 1);
    }
  }
  return { strength, orientation };
}
