/**
 * Windows around the separate things a picture shows: the logo beside a line of text, two logos side by side, a
 * badge in the corner of a white product shot.
 *
 * The grid of regions.ts misses no place but fits a small logo loosely: a logo at 15% of the picture beside a line
 * of text sits in a 0.45 window with the text, and the text outweighs it. Where the picture has a plain background,
 * its content falls apart into blobs, and a window drawn tightly around a blob (or a group of nearby blobs) shows the
 * logo as the embedder was trained to see it.
 *
 * 1. The background is the colour most of the picture's outer ring shares (the normaliser pads with white; a picture
 *    whose content fills the square brings its own). No such colour: a busy picture, no proposals.
 * 2. The picture is read on a coarse grid of CELL x CELL pixel cells; a cell is foreground when any of its pixels
 *    differs from the background by more than the normaliser's trim threshold.
 * 3. Blobs are the 8-connected groups of foreground cells after growing the mask by 0, 1, 2 and 4 cells: the parts
 *    of a logo join before the logo joins the text beside it, so some level holds the logo alone.
 * 4. Each blob's box becomes a square window a little larger than the box; windows too small to hold a logo, as big
 *    as the picture itself, or nearly the same as one already proposed are dropped; the largest MAX_PROPOSALS stay.
 */
import type { ImageWindow, NormalizedImage } from '../ports';
import { TRIM_THRESHOLD } from './normalize-image';

const CELL = 4;
const GROWTH = [0, 1, 2, 4];
/** A window this share of the side or smaller cannot hold a logo the embedder can read. */
const MIN_SIDE = 0.1;
/** A window this share of the side or larger is the whole picture, already searched. */
const MAX_SIDE = 0.85;
const MARGIN = 1.15;
const MAX_PROPOSALS = 8;
/** Share of the outer ring that must be one colour for the picture to have a plain background. */
const PLAIN_RING = 0.6;

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const differs = (rgb: Uint8Array, i: number, bg: readonly number[]) =>
  Math.abs(rgb[i]! - bg[0]!) > TRIM_THRESHOLD ||
  Math.abs(rgb[i + 1]! - bg[1]!) > TRIM_THRESHOLD ||
  Math.abs(rgb[i + 2]! - bg[2]!) > TRIM_THRESHOLD;

/** The colour shared by at least PLAIN_RING of the outer ring's pixels, or undefined. */
export function plainBackground(image: NormalizedImage): number[] | undefined {
  const { width, height, rgb } = image;
  const ring: number[] = [];
  for (let x = 0; x < width; x++) ring.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) ring.push(y * width, y * width + width - 1);
  // Candidate: the per-channel median of the ring.
  const channel = (c: number) => ring.map((p) => rgb[p * 3 + c]!).sort((a, b) => a - b)[ring.length >> 1]!;
  const bg = [channel(0), channel(1), channel(2)];
  const same = ring.filter((p) => !differs(rgb, p * 3, bg)).length;
  return same >= PLAIN_RING * ring.length ? bg : undefined;
}

function foregroundCells(
  image: NormalizedImage,
  bg: readonly number[],
): { mask: Uint8Array; cols: number; rows: number } {
  const { width, height, rgb } = image;
  const cols = Math.ceil(width / CELL);
  const rows = Math.ceil(height / CELL);
  const mask = new Uint8Array(cols * rows);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / CELL) * cols;
    for (let x = 0; x < width; x++) {
      if (differs(rgb, (y * width + x) * 3, bg)) mask[row + Math.floor(x / CELL)] = 1;
    }
  }
  return { mask, cols, rows };
}

function grow(mask: Uint8Array, cols: number, rows: number, by: number): Uint8Array {
  if (by === 0) return mask;
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      if (!mask[y * cols + x]) continue;
      for (let yy = Math.max(0, y - by); yy <= Math.min(rows - 1, y + by); yy++) {
        out.fill(1, yy * cols + Math.max(0, x - by), yy * cols + Math.min(cols - 1, x + by) + 1);
      }
    }
  }
  return out;
}

/** Boxes (in cells) of the 8-connected groups of `grown`, each shrunk to the cells of `mask` it holds. */
function blobs(mask: Uint8Array, grown: Uint8Array, cols: number, rows: number): Box[] {
  const seen = new Uint8Array(grown.length);
  const boxes: Box[] = [];
  const stack: number[] = [];
  for (let start = 0; start < grown.length; start++) {
    if (!grown[start] || seen[start]) continue;
    const box = { x0: cols, y0: rows, x1: -1, y1: -1 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const cell = stack.pop()!;
      const x = cell % cols;
      const y = (cell - x) / cols;
      if (mask[cell]) {
        box.x0 = Math.min(box.x0, x);
        box.y0 = Math.min(box.y0, y);
        box.x1 = Math.max(box.x1, x);
        box.y1 = Math.max(box.y1, y);
      }
      for (let yy = Math.max(0, y - 1); yy <= Math.min(rows - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(cols - 1, x + 1); xx++) {
          const next = yy * cols + xx;
          if (grown[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    if (box.x1 >= 0) boxes.push(box);
  }
  return boxes;
}

/** A square window around a box of cells, a little larger than it, kept inside the picture. */
function squareAround(box: Box, cols: number, rows: number): ImageWindow {
  const w = (box.x1 - box.x0 + 1) / cols;
  const h = (box.y1 - box.y0 + 1) / rows;
  const side = Math.min(1, Math.max(w, h) * MARGIN);
  const cx = (box.x0 + (box.x1 + 1)) / 2 / cols;
  const cy = (box.y0 + (box.y1 + 1)) / 2 / rows;
  const clamp = (centre: number) => Math.min(1 - side, Math.max(0, centre - side / 2));
  return { x: clamp(cx), y: clamp(cy), w: side, h: side };
}

function overlap(a: ImageWindow, b: ImageWindow): number {
  const ix = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = ix * iy;
  return inter / (a.w * a.h + b.w * b.h - inter);
}

/** Windows around the blobs of a plain-background picture, largest first; none for a busy picture. */
export function contentProposals(image: NormalizedImage): ImageWindow[] {
  const bg = plainBackground(image);
  if (!bg) return [];
  const { mask, cols, rows } = foregroundCells(image, bg);
  const windows: ImageWindow[] = [];
  for (const by of GROWTH) {
    for (const box of blobs(mask, grow(mask, cols, rows, by), cols, rows)) {
      const window = squareAround(box, cols, rows);
      if (window.w <= MIN_SIDE || window.w >= MAX_SIDE) continue;
      if (windows.some((held) => overlap(held, window) >= 0.6)) continue;
      windows.push(window);
    }
  }
  return windows.sort((a, b) => b.w - a.w).slice(0, MAX_PROPOSALS);
}
