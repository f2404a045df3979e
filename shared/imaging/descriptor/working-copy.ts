/** Step 1 of the perceptual descriptor (../perceptual-descriptor.ts): the working copy of the image. */
import type { NormalizedImage } from '../../ports';
import { WORK } from './constants';

// ---------------------------------------------------------------------------------------------------------------
// 1. Working copy

export interface Planes {
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
}

/** Area average to WORK x WORK (nearest sample when the input is smaller); a non-square input is stretched. */
export function toWorkingSize(image: NormalizedImage): Planes {
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
