/**
 * Where in a picture a logo may be: the whole normalised image and a fixed set of multi-scale windows over it.
 *
 * A seller's picture often shows the logo small (on a shirt, a box, a busy photo). The learned embedder was trained
 * on logos that fill 25-95% of its input, so a logo at 30% of the picture is in reach of the whole image, and one at
 * 15-30% is in reach of a window half the picture's side. The windows (fractions of the normalised square):
 *   - the whole image;
 *   - 3 x 3 windows of 0.6 (stride 0.2), so any logo up to about a third of the side sits well inside one of them;
 *   - 4 x 4 windows of 0.45 (stride 0.183), for logos of 15-25% of the side.
 * 26 crops in all, embedded in one batched run. The window grid was chosen over a saliency map because it misses no
 * place and costs one batched model run; `eval:logos` measures what it buys (the "30% size" rows).
 *
 * `crop` cuts a window out of the normalised image and resamples it to the embedder's input side with an area
 * average (every source pixel under an output pixel counts), so that a downscale does not alias.
 */
import type { ImageWindow, NormalizedImage } from '../ports';

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

/** The whole image first, then the windows. */
export const CANDIDATE_WINDOWS: readonly Window[] = [WHOLE, ...grid(0.6, 3), ...grid(0.45, 4)];

/** The window of `image` resampled to `size` x `size` by area averaging. */
export function crop(image: NormalizedImage, window: Window, size: number): NormalizedImage {
  const { width, height, rgb } = image;
  const left = window.x * width;
  const top = window.y * height;
  const stepX = (window.w * width) / size;
  const stepY = (window.h * height) / size;
  const out = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const y0 = Math.min(height - 1, Math.floor(top + y * stepY));
    const y1 = Math.min(height, Math.max(y0 + 1, Math.ceil(top + (y + 1) * stepY)));
    for (let x = 0; x < size; x++) {
      const x0 = Math.min(width - 1, Math.floor(left + x * stepX));
      const x1 = Math.min(width, Math.max(x0 + 1, Math.ceil(left + (x + 1) * stepX)));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * width + sx) * 3;
          r += rgb[i]!;
          g += rgb[i + 1]!;
          b += rgb[i + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * size + x) * 3;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
    }
  }
  return { width: size, height: size, rgb: out };
}
