/**
 * The ONNX embedder with a real model: test/fixtures/models/mobilenet-v2-not-clip (MobileNetV2 backbone with
 * uint8-quantised weights, MIT licence; NOT CLIP). Its input `pixel_values` is float32 [N, 3, 224, 224] in [0, 1]
 * and its output `image_embeds` is float32 [N, 1280]: the same wiring a CLIP ViT-B/32 vision export needs, with
 * different numbers. Images are drawn in code; sharp does the resizing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import sharp from 'sharp';
import type * as OnnxEmbedderModule from '../../../shared/adapters/local/onnx-embedder';
import { SearchBackendUnavailableError } from '../../../shared/imaging/image-errors';
import type { NormalizedImage } from '../../../shared/ports';

/*
 * Jest runs each test file in its own VM realm, while onnxruntime-node's native binding creates its output arrays
 * in Node's main realm, and onnxruntime-common checks tensor data with `instanceof` against the typed-array
 * constructors of the realm that loaded it. Give this realm the main realm's typed arrays BEFORE onnxruntime loads,
 * so both sides agree (outside jest there is one realm and nothing of this is needed).
 */
const MAIN_REALM_TYPED_ARRAYS = [
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
];
for (const name of MAIN_REALM_TYPED_ARRAYS) {
  (globalThis as Record<string, unknown>)[name] = runInThisContext(name);
}
const { CLIP_VIT_B32_VISION, OnnxEmbedder, resizeCentreCrop, toInputTensorData } =
  require('../../../shared/adapters/local/onnx-embedder') as typeof OnnxEmbedderModule;
type OnnxEmbedder = OnnxEmbedderModule.OnnxEmbedder;

const FIXTURES = path.join(__dirname, '../../fixtures/models');
const MODEL = path.join(FIXTURES, 'mobilenet-v2-not-clip/mobilenet_v2_nsfwjs_uint8.onnx');
const MOBILENET = {
  modelPath: MODEL,
  name: 'mobilenet-test',
  inputName: 'pixel_values',
  outputName: 'image_embeds',
  inputSize: 224,
  layout: 'NCHW',
  dtype: 'float32',
} as const;

type Shape = 'ring' | 'stripes';

/** A logo drawn at any size: the same picture at every resolution. */
function draw(shape: Shape, size: number): NormalizedImage {
  const rgb = new Uint8Array(size * size * 3).fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size - 0.5;
      const v = (y + 0.5) / size - 0.5;
      const r2 = u * u + v * v;
      let colour: [number, number, number] | undefined;
      if (shape === 'ring' && r2 < 0.16 && r2 > 0.06) colour = [210, 25, 35];
      if (shape === 'stripes' && Math.floor((u + 0.5) * 8) % 2 === 0) colour = [20, 50, 190];
      if (colour) rgb.set(colour, (y * size + x) * 3);
    }
  }
  return { rgb, width: size, height: size };
}

async function resizedWithSharp(image: NormalizedImage, size: number): Promise<NormalizedImage> {
  const data = await sharp(Buffer.from(image.rgb), { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(size, size)
    .raw()
    .toBuffer();
  return { rgb: new Uint8Array(data), width: size, height: size };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

describe('OnnxEmbedder with the mobilenet-v2-not-clip model', () => {
  let embedder: OnnxEmbedder;

  beforeAll(async () => {
    embedder = await OnnxEmbedder.load(MOBILENET);
  });

  afterAll(async () => {
    await embedder.close();
  });

  it('reads its dimension from the model output (1280) and returns vectors of that length', async () => {
    // Act
    const vector = await embedder.embed(draw('ring', 224));

    // Assert
    expect(embedder.dimensions).toBe(1280);
    expect(embedder.name).toBe('mobilenet-test');
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector).toHaveLength(1280);
  });

  it('returns unit-length vectors', async () => {
    // Act
    const vector = await embedder.embed(draw('stripes', 300));

    // Assert
    expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 5);
  });

  it('is deterministic: the same image gives the same vector', async () => {
    // Act
    const first = await embedder.embed(draw('ring', 224));
    const second = await embedder.embed(draw('ring', 224));

    // Assert
    expect(Array.from(second)).toEqual(Array.from(first));
  });

  it('tells two different logos apart, and keeps one logo close to itself resized', async () => {
    // Arrange
    const ring = draw('ring', 400);
    const ringSmaller = await resizedWithSharp(ring, 256);

    // Act
    const [a, aResized, b] = await Promise.all([
      embedder.embed(ring),
      embedder.embed(ringSmaller),
      embedder.embed(draw('stripes', 400)),
    ]);

    // Assert
    const same = cosine(a, aResized);
    const different = cosine(a, b);
    expect(same).toBeGreaterThan(0.95);
    expect(different).toBeLessThan(0.85);
    expect(same - different).toBeGreaterThan(0.1);
  });

  it("refuses a stated dimension that contradicts the model's output shape", async () => {
    // Act
    const wrong = OnnxEmbedder.load({ ...MOBILENET, dimensions: 512 });

    // Assert
    await expect(wrong).rejects.toThrow(/image_embeds" has 1280 values, configured 512/);
  });

  it('refuses a configuration that does not fit the model', async () => {
    await expect(OnnxEmbedder.load({ ...MOBILENET, dtype: 'uint8' })).rejects.toThrow(
      /takes float32, configured uint8/,
    );
    await expect(OnnxEmbedder.load({ ...MOBILENET, inputName: 'input_1' })).rejects.toThrow(/no input "input_1"/);
    await expect(OnnxEmbedder.load({ ...MOBILENET, outputName: 'logits' })).rejects.toThrow(/no output "logits"/);
    await expect(OnnxEmbedder.load({ ...MOBILENET, inputSize: 256 })).rejects.toThrow(
      /has shape \[batch, 3, 224, 224\]/,
    );
    await expect(OnnxEmbedder.load({ ...MOBILENET, layout: 'NHWC' })).rejects.toThrow(/configured NHWC/);
  });

  it('does not start a run once the caller has given up (timeout, for the degraded path)', async () => {
    // Arrange
    const controller = new AbortController();
    controller.abort();

    // Act
    const err = await embedder.embed(draw('ring', 224), { signal: controller.signal }).catch((e: unknown) => e);

    // Assert
    expect(err).toBeInstanceOf(SearchBackendUnavailableError);
    expect((err as SearchBackendUnavailableError).reason).toBe('timeout');
  });
});

describe('ONNX input preprocessing', () => {
  // A 2 x 2 image: red, green / blue, white
  const tiny: NormalizedImage = {
    width: 2,
    height: 2,
    rgb: Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]),
  };

  it('lays out uint8 pixels as NCHW planes or NHWC interleaved, without normalisation', () => {
    // Act
    const nchw = toInputTensorData(tiny, { inputSize: 2, layout: 'NCHW', dtype: 'uint8' });
    const nhwc = toInputTensorData(tiny, { inputSize: 2, layout: 'NHWC', dtype: 'uint8' });

    // Assert
    expect(nchw).toBeInstanceOf(Uint8Array);
    expect(Array.from(nchw)).toEqual([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]);
    expect(Array.from(nhwc)).toEqual(Array.from(tiny.rgb));
  });

  it("normalises float32 input with CLIP's mean and std: (pixel / 255 - mean) / std", () => {
    // Act
    const data = toInputTensorData(tiny, { ...CLIP_VIT_B32_VISION, inputSize: 2 });

    // Assert: channel planes; pixel 0 is red
    const [mr, mg, mb] = CLIP_VIT_B32_VISION.mean!;
    const [sr, sg, sb] = CLIP_VIT_B32_VISION.std!;
    expect(data).toBeInstanceOf(Float32Array);
    expect(data[0]).toBeCloseTo((1 - mr) / sr, 5);
    expect(data[4]).toBeCloseTo((0 - mg) / sg, 5);
    expect(data[8]).toBeCloseTo((0 - mb) / sb, 5);
    expect(data[3]).toBeCloseTo((1 - mr) / sr, 5); // white
  });

  it('matches the CLIP ViT-B/32 preprocessing facts shipped with the fixtures', () => {
    // Arrange
    const facts = JSON.parse(
      readFileSync(path.join(FIXTURES, 'clip-vit-b32-preprocessing/preprocessor_config.json'), 'utf8'),
    ) as { crop_size: { height: number }; image_mean: number[]; image_std: number[] };
    const model = JSON.parse(readFileSync(path.join(FIXTURES, 'clip-vit-b32-preprocessing/config.json'), 'utf8')) as {
      projection_dim: number;
    };

    // Assert
    expect(CLIP_VIT_B32_VISION.inputSize).toBe(facts.crop_size.height);
    expect(CLIP_VIT_B32_VISION.mean).toEqual(facts.image_mean);
    expect(CLIP_VIT_B32_VISION.std).toEqual(facts.image_std);
    expect(CLIP_VIT_B32_VISION.dimensions).toBe(model.projection_dim);
    expect(CLIP_VIT_B32_VISION.layout).toBe('NCHW');
  });

  it('resizes the shorter side and keeps the centre square of a non-square image', () => {
    // Arrange: 4 x 2, left half black, right half white, a red column in the middle two pixels
    const wide: NormalizedImage = { width: 4, height: 2, rgb: new Uint8Array(4 * 2 * 3) };
    for (let y = 0; y < 2; y++) {
      wide.rgb.set([0, 0, 0], (y * 4 + 0) * 3);
      wide.rgb.set([200, 0, 0], (y * 4 + 1) * 3);
      wide.rgb.set([200, 0, 0], (y * 4 + 2) * 3);
      wide.rgb.set([255, 255, 255], (y * 4 + 3) * 3);
    }

    // Act
    const cropped = resizeCentreCrop(wide, 2, 'nearest');

    // Assert: only the two middle (red) columns survive
    expect(Array.from(cropped)).toEqual([200, 0, 0, 200, 0, 0, 200, 0, 0, 200, 0, 0]);
  });
});
