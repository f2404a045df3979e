/** Steps 5 and 6 (maps) of the perceptual descriptor (../perceptual-descriptor.ts): the canonical frame and the pooled maps. */
import {
  WORK,
  GRID,
  RADIUS_SPAN,
  RINGS,
  RING_GROUPS,
  ANGLE_BINS,
  ORIENTATIONS,
  HOG_CELLS,
  BLOCK_SIZES,
} from './constants';
import type { Edges } from './edges';

// ---------------------------------------------------------------------------------------------------------------
// 5. Canonical frame (from the edges: the same for a logo and its inversion) and the blocks that live in it

export interface Frame {
  cx: number;
  cy: number;
  /** Grid cells per working pixel. */
  scale: number;
}

export function frameOf(weights: Float32Array): Frame | undefined {
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
export function canonicalMap(values: Float32Array, frame: Frame): Float32Array {
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

export function splat(map: Float32Array, size: number, x: number, y: number, w: number): void {
  if (x >= 0 && x < size && y >= 0 && y < size) map[y * size + x]! += w;
}

/** Separable [1 2 1] / 4 blur with clamped edges. */
export function blur121(map: Float32Array, size: number): Float32Array {
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

export function pooled(map: Float32Array, cells: number): Float32Array {
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
export function orientationAndRings(
  edges: Edges,
  ink: Float32Array,
  frame: Frame,
): { orientation: Float32Array; rings: Float32Array } {
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
      for (const [cellX, wx] of [
        [ix, 1 - fx],
        [ix + 1, fx],
      ] as const) {
        if (cellX < 0 || cellX >= HOG_CELLS) continue;
        for (const [cellY, wy] of [
          [iy, 1 - fy],
          [iy + 1, fy],
        ] as const) {
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
