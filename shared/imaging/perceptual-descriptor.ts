/**
 * The perceptual logo descriptor: the in-process embedder that needs no model (the degraded path's index; the
 * learned embedder is the primary). The steps live in ./descriptor/, one file per job. Pure TypeScript over the pixels of a NormalizedImage, so it runs the same in Lambda and locally.
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
import { BLOCK_SIZES, COARSE, EDGE, FINE } from './descriptor/constants';
import { canonicalMap, frameOf, orientationAndRings, pooled } from './descriptor/canonical-frame';
import { contentRect, inkOf, peelFrame } from './descriptor/content-and-ink';
import { edgesOf } from './descriptor/edges';
import { toWorkingSize } from './descriptor/working-copy';

export type DescriptorBlock = keyof typeof BLOCK_SIZES;
export type DescriptorWeights = Record<DescriptorBlock, number>;

export const DEFAULT_DESCRIPTOR_WEIGHTS: DescriptorWeights = {
  fill: 0.5,
  fillCoarse: 0.5,
  edge: 1,
  orientation: 1,
  rings: 0.5,
};

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
export function describeLogo(
  image: NormalizedImage,
  weights: DescriptorWeights = DEFAULT_DESCRIPTOR_WEIGHTS,
): Float32Array {
  if (image.width <= 0 || image.height <= 0 || image.rgb.length < image.width * image.height * 3) {
    throw new RangeError(
      `a ${image.width}x${image.height} RGB image needs ${image.width * image.height * 3} bytes, got ${image.rgb.length}`,
    );
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
    {
      fill: pooled(fillMap, FINE),
      fillCoarse: pooled(fillMap, COARSE),
      edge: pooled(edgeMap, EDGE),
      orientation,
      rings,
    },
    weights,
  );
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
