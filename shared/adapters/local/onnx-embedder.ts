/**
 * An image encoder in ONNX format run in-process with onnxruntime-node.
 *
 * Everything model-specific is configuration, so a CLIP ViT-B/32 vision encoder drops in with the preset
 * `CLIP_VIT_B32_VISION` (224 x 224, NCHW, float32, CLIP's mean and std, output `image_embeds`), and any other encoder
 * with one input image tensor works by naming its input, size, layout, element type, normalisation and output.
 *
 * Preprocessing (done here in TypeScript, no native image library):
 * 1. resize the shorter side of the NormalizedImage to `inputSize` (bilinear, or nearest) and take the centre crop
 *    (the logo is already square, so this is a plain resize; it is CLIP's "shortest edge + centre crop" otherwise);
 * 2. float32: value = (pixel / 255 - mean[c]) / std[c]; uint8: the raw 0..255 pixel (mean/std must be left unset);
 * 3. lay the pixels out as NCHW ([1, 3, H, W], planes) or NHWC ([1, H, W, 3], interleaved).
 * The chosen output is flattened (a [1, D] tensor) and L2-normalised, so cosine similarity is a dot product.
 *
 * `OnnxEmbedder.load` checks the configuration against the model's own input/output metadata and fails loudly on a
 * mismatch (wrong input name, element type or size); the dimension comes from the output's static shape, or from a
 * probe run on a blank image when the shape is symbolic, unless it is given.
 *
 * onnxruntime cannot interrupt a run: an aborted signal is honoured before the run starts and when it ends, both
 * reported as SearchBackendUnavailableError('timeout') so the caller's degraded path can take over.
 */
import * as ort from 'onnxruntime-node';
import { SearchBackendUnavailableError } from '../../imaging/image-errors';
import type { Embedder, NormalizedImage } from '../../ports';

export type TensorLayout = 'NCHW' | 'NHWC';
export type InputElementType = 'float32' | 'uint8';
export type Rgb = readonly [number, number, number];

export interface OnnxInputSpec {
  /** Side of the square input in pixels (224 for CLIP ViT-B/32). */
  inputSize: number;
  layout: TensorLayout;
  dtype: InputElementType;
  /** Per-channel mean of the 0..1 pixel, float32 only (default 0). */
  mean?: Rgb;
  /** Per-channel standard deviation of the 0..1 pixel, float32 only (default 1). */
  std?: Rgb;
  resize?: 'bilinear' | 'nearest';
}

export interface OnnxEmbedderOptions extends OnnxInputSpec {
  modelPath: string;
  /** Stored with the vectors: only vectors of one name are compared (default `onnx`; a CLIP export uses `clip`). */
  name?: string;
  /** The image input (default: the model's first input). */
  inputName?: string;
  /** The embedding output (default: the model's first output). */
  outputName?: string;
  /** The embedding length; read from the model when not given. */
  dimensions?: number;
  /** Threads for one run (default 1: a Lambda or a test machine runs several requests side by side). */
  intraOpNumThreads?: number;
}

/** OpenAI CLIP ViT-B/32 vision encoder as exported to ONNX (see test/fixtures/models/clip-vit-b32-preprocessing). */
export const CLIP_VIT_B32_VISION: Omit<OnnxEmbedderOptions, 'modelPath'> = {
  name: 'clip',
  inputName: 'pixel_values',
  outputName: 'image_embeds',
  inputSize: 224,
  layout: 'NCHW',
  dtype: 'float32',
  mean: [0.48145466, 0.4578275, 0.40821073],
  std: [0.26862954, 0.26130258, 0.27577711],
  resize: 'bilinear',
  dimensions: 512,
};

export class OnnxEmbedder implements Embedder {
  private constructor(
    readonly name: string,
    readonly dimensions: number,
    private readonly session: ort.InferenceSession,
    private readonly inputName: string,
    private readonly outputName: string,
    private readonly spec: OnnxInputSpec,
  ) {}

  /** Loads the model, checks the configuration against it and settles the embedding dimension. */
  static async load(options: OnnxEmbedderOptions): Promise<OnnxEmbedder> {
    validateSpec(options);
    const session = await ort.InferenceSession.create(options.modelPath, {
      intraOpNumThreads: options.intraOpNumThreads ?? 1,
      graphOptimizationLevel: 'all',
    });
    try {
      return await OnnxEmbedder.fromSession(options, session);
    } catch (err) {
      await session.release();
      throw err;
    }
  }

  private static async fromSession(options: OnnxEmbedderOptions, session: ort.InferenceSession): Promise<OnnxEmbedder> {
    const inputName = options.inputName ?? session.inputNames[0];
    const outputName = options.outputName ?? session.outputNames[0];
    if (!inputName || !session.inputNames.includes(inputName)) {
      throw new Error(`${options.modelPath}: no input "${inputName}"; the model has ${session.inputNames.join(', ')}`);
    }
    if (!outputName || !session.outputNames.includes(outputName)) {
      throw new Error(
        `${options.modelPath}: no output "${outputName}"; the model has ${session.outputNames.join(', ')}`,
      );
    }
    checkInputAgainstModel(options, session, inputName);

    const name = options.name ?? 'onnx';
    const declared = staticEmbeddingLength(session, outputName);
    if (options.dimensions !== undefined && declared !== undefined && declared !== options.dimensions) {
      throw new Error(
        `${options.modelPath}: output "${outputName}" has ${declared} values, configured ${options.dimensions}`,
      );
    }
    let dimensions = options.dimensions ?? declared;
    if (dimensions === undefined) {
      // Symbolic output shape: one run on a blank image tells the length.
      const probe = new OnnxEmbedder(name, 0, session, inputName, outputName, options);
      dimensions = (await probe.run(blankImage(options.inputSize))).length;
    }
    return new OnnxEmbedder(name, dimensions, session, inputName, outputName, options);
  }

  async embed(image: NormalizedImage, options?: { signal?: AbortSignal }): Promise<Float32Array> {
    return (await this.embedMany([image], options))[0]!;
  }

  /** Several images in one run of the model (its batch axis must be dynamic when more than one is given). */
  async embedMany(images: readonly NormalizedImage[], options?: { signal?: AbortSignal }): Promise<Float32Array[]> {
    const signal = options?.signal;
    if (signal?.aborted) throw new SearchBackendUnavailableError(this.name, 'timeout', { cause: signal.reason });
    let vectors: Float32Array[];
    try {
      const raw = await this.run(images);
      if (raw.length !== this.dimensions * images.length) {
        throw new Error(`the model returned ${raw.length} values, expected ${this.dimensions} x ${images.length}`);
      }
      vectors = images.map((_, i) => l2Normalise(raw.subarray(i * this.dimensions, (i + 1) * this.dimensions)));
    } catch (err) {
      throw new SearchBackendUnavailableError(this.name, 'failed', { cause: err });
    }
    if (signal?.aborted) throw new SearchBackendUnavailableError(this.name, 'timeout', { cause: signal.reason });
    return vectors;
  }

  /** Releases the native session. */
  async close(): Promise<void> {
    await this.session.release();
  }

  private async run(images: NormalizedImage | readonly NormalizedImage[]): Promise<Float32Array> {
    const batch = Array.isArray(images) ? (images as readonly NormalizedImage[]) : [images as NormalizedImage];
    const size = this.spec.inputSize;
    const parts = batch.map((image) => toInputTensorData(image, this.spec));
    const data = parts.length === 1 ? parts[0]! : concatenate(parts, this.spec.dtype);
    const dims = this.spec.layout === 'NCHW' ? [batch.length, 3, size, size] : [batch.length, size, size, 3];
    const input = new ort.Tensor(this.spec.dtype, data, dims);
    // With the length known, the output goes into a tensor of ours (a [batch, D] buffer the runtime fills), which
    // also spares a copy; the probe that finds the length lets the runtime allocate it.
    const fetches =
      this.dimensions > 0
        ? {
            [this.outputName]: new ort.Tensor('float32', new Float32Array(batch.length * this.dimensions), [
              batch.length,
              this.dimensions,
            ]),
          }
        : [this.outputName];
    const outputs = await this.session.run({ [this.inputName]: input }, fetches);
    const output = outputs[this.outputName];
    if (output?.type !== 'float32') {
      throw new Error(`output "${this.outputName}" is ${output ? output.type : 'missing'}, expected float32`);
    }
    return Float32Array.from(output.data as Float32Array);
  }
}

/**
 * The input tensor's data for one image (batch of 1): resized and centre-cropped to `inputSize`, normalised for
 * float32, in the requested layout. Exported because the layout and normalisation are worth testing on their own.
 */
export function toInputTensorData(image: NormalizedImage, spec: OnnxInputSpec): Float32Array | Uint8Array {
  assertImage(image);
  const size = spec.inputSize;
  const rgb = resizeCentreCrop(image, size, spec.resize ?? 'bilinear');
  const plane = size * size;
  if (spec.dtype === 'uint8') {
    if (spec.layout === 'NHWC') return rgb;
    const out = new Uint8Array(3 * plane);
    for (let p = 0; p < plane; p++) {
      out[p] = rgb[p * 3]!;
      out[plane + p] = rgb[p * 3 + 1]!;
      out[2 * plane + p] = rgb[p * 3 + 2]!;
    }
    return out;
  }
  const mean = spec.mean ?? [0, 0, 0];
  const std = spec.std ?? [1, 1, 1];
  // value = (pixel / 255 - mean) / std, folded into one multiply-add per channel.
  const scale = [1 / (255 * std[0]), 1 / (255 * std[1]), 1 / (255 * std[2])];
  const offset = [mean[0] / std[0], mean[1] / std[1], mean[2] / std[2]];
  const out = new Float32Array(3 * plane);
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < 3; c++) {
      const value = rgb[p * 3 + c]! * scale[c]! - offset[c]!;
      out[spec.layout === 'NCHW' ? c * plane + p : p * 3 + c] = value;
    }
  }
  return out;
}

/** Scales the shorter side to `size` and keeps the centred `size` x `size` square; RGB interleaved out. */
export function resizeCentreCrop(image: NormalizedImage, size: number, mode: 'bilinear' | 'nearest'): Uint8Array {
  const { width, height, rgb } = image;
  const scale = size / Math.min(width, height);
  // Source-pixel offset of the crop window (in source coordinates).
  const offsetX = (width - size / scale) / 2;
  const offsetY = (height - size / scale) / 2;
  const out = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    // Pixel centres map onto pixel centres (the convention of most resizers).
    const sy = clamp(offsetY + (y + 0.5) / scale - 0.5, 0, height - 1);
    for (let x = 0; x < size; x++) {
      const sx = clamp(offsetX + (x + 0.5) / scale - 0.5, 0, width - 1);
      const o = (y * size + x) * 3;
      if (mode === 'nearest') {
        const i = (Math.round(sy) * width + Math.round(sx)) * 3;
        out[o] = rgb[i]!;
        out[o + 1] = rgb[i + 1]!;
        out[o + 2] = rgb[i + 2]!;
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(x0 + 1, width - 1);
      const y1 = Math.min(y0 + 1, height - 1);
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * width + x0) * 3;
      const i01 = (y0 * width + x1) * 3;
      const i10 = (y1 * width + x0) * 3;
      const i11 = (y1 * width + x1) * 3;
      for (let c = 0; c < 3; c++) {
        const top = rgb[i00 + c]! * (1 - fx) + rgb[i01 + c]! * fx;
        const bottom = rgb[i10 + c]! * (1 - fx) + rgb[i11 + c]! * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return out;
}

function l2Normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) {
    throw new Error('the embedding is all zeros or not finite and cannot be normalised');
  }
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! / norm;
  return out;
}

function concatenate(parts: (Float32Array | Uint8Array)[], dtype: InputElementType): Float32Array | Uint8Array {
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const out = dtype === 'uint8' ? new Uint8Array(total) : new Float32Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function validateSpec(spec: OnnxEmbedderOptions): void {
  if (!Number.isInteger(spec.inputSize) || spec.inputSize < 1) throw new Error(`inputSize must be a positive integer`);
  if (spec.dtype === 'uint8' && (spec.mean || spec.std)) {
    throw new Error('mean/std apply to float32 inputs only; a uint8 input takes the raw 0..255 pixels');
  }
  for (const s of spec.std ?? []) if (!(s > 0)) throw new Error('every std must be > 0');
}

function checkInputAgainstModel(spec: OnnxEmbedderOptions, session: ort.InferenceSession, inputName: string): void {
  const meta = session.inputMetadata.find((m) => m.name === inputName);
  if (!meta?.isTensor) return;
  if (meta.type !== spec.dtype) {
    throw new Error(`${spec.modelPath}: input "${inputName}" takes ${meta.type}, configured ${spec.dtype}`);
  }
  const expected = spec.layout === 'NCHW' ? [3, spec.inputSize, spec.inputSize] : [spec.inputSize, spec.inputSize, 3];
  const actual = meta.shape.slice(1);
  if (meta.shape.length === 4 && actual.some((d, i) => typeof d === 'number' && d !== expected[i])) {
    throw new Error(
      `${spec.modelPath}: input "${inputName}" has shape [${meta.shape.join(', ')}], configured ${spec.layout} ` +
        `${spec.inputSize}x${spec.inputSize}`,
    );
  }
}

/** The embedding length from the output's static shape ([batch, D]), when every non-batch dimension is a number. */
function staticEmbeddingLength(session: ort.InferenceSession, outputName: string): number | undefined {
  const meta = session.outputMetadata.find((m) => m.name === outputName);
  if (!meta?.isTensor || meta.shape.length < 2) return undefined;
  let length = 1;
  for (const d of meta.shape.slice(1)) {
    if (typeof d !== 'number' || d < 1) return undefined;
    length *= d;
  }
  return length;
}

function assertImage(image: NormalizedImage): void {
  if (!(image.width > 0 && image.height > 0) || image.rgb.length !== image.width * image.height * 3) {
    throw new Error(`not an RGB image: ${image.width}x${image.height} with ${image.rgb.length} bytes`);
  }
}

function blankImage(size: number): NormalizedImage {
  return { width: size, height: size, rgb: new Uint8Array(size * size * 3).fill(255) };
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : Math.min(v, hi);
}
