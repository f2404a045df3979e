/** Sizes of the perceptual descriptor (see ../perceptual-descriptor.ts for what each one is). */

export const WORK = 112;
export const GRID = 32;
/** The canonical window spans this many radii of gyration either side of the ink centroid. */
export const RADIUS_SPAN = 1.9;
export const RINGS = 12;
export const RING_GROUPS = 3;
export const ANGLE_BINS = 4;
export const ORIENTATIONS = 8;
export const HOG_CELLS = 4;

export const FINE = 16;
export const COARSE = 8;
export const EDGE = 8;
export const BLOCK_SIZES = {
  fill: FINE * FINE,
  fillCoarse: COARSE * COARSE,
  edge: EDGE * EDGE,
  orientation: HOG_CELLS * HOG_CELLS * ORIENTATIONS,
  rings: 2 * RINGS + RING_GROUPS * ANGLE_BINS,
} as const;
