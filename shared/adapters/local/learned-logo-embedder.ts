/**
 * The learned logo embedder (builders/logo-embedder, model card data/models/logo-embedder/MODEL_CARD.md) run
 * in-process with onnxruntime-node, in the Lambda as on a laptop.
 *
 * It sees the service's normalised picture (224 x 224) area-averaged down to its 64 x 64 input, or a window of it
 * (regions.ts) resampled the same way; all windows of one picture go through the model in one batched run.
 * Input: float32 NCHW, (pixel / 255 - 0.5) / 0.5; output: 128 values, L2-normalised.
 *
 * Centring: the model's output minus its centre (data/models/logo-embedder/centre.json, the mean embedding of
 * pictures that show no logo whole; builders/logo-embedder/centre.ts), normalised again, so that the designs that sit
 * close to all clutter are not the nearest mark to every busy picture. The centre belongs to one model: it is applied
 * only when the model file's SHA-256 is the one it records (a test's or another model is used as it is).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import shippedCentre from '../../../data/models/logo-embedder/centre.json';
import type { Embedder, ImageWindow, NormalizedImage } from '../../ports';
import { crop, WHOLE } from '../../imaging/regions';
import { OnnxEmbedder, type OnnxEmbedderOptions } from './onnx-embedder';

export const LOGO_NET_INPUT = 64;

export const LOGO_NET: Omit<OnnxEmbedderOptions, 'modelPath'> = {
  name: 'logo-net',
  inputName: 'image',
  outputName: 'embedding',
  inputSize: LOGO_NET_INPUT,
  layout: 'NCHW',
  dtype: 'float32',
  mean: [0.5, 0.5, 0.5],
  std: [0.5, 0.5, 0.5],
  resize: 'bilinear',
  dimensions: 128,
};

/** The committed model, relative to the project root. */
export const LOGO_NET_MODEL = path.join('data', 'models', 'logo-embedder', 'logo-embedder.onnx');

export interface EmbeddingCentre {
  model_sha256: string;
  vector: number[];
}

/** `vector` minus `centre`, L2-normalised. */
export function centred(vector: Float32Array, centre: readonly number[]): Float32Array {
  const out = new Float32Array(vector.length);
  let norm = 0;
  for (let i = 0; i < vector.length; i++) {
    out[i] = vector[i]! - centre[i]!;
    norm += out[i]! * out[i]!;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}

export class LearnedLogoEmbedder implements Embedder {
  readonly name = LOGO_NET.name!;
  readonly dimensions = LOGO_NET.dimensions!;

  private constructor(
    private readonly model: OnnxEmbedder,
    /** The centre applied to every output; absent when it does not belong to the model loaded. */
    readonly centre: readonly number[] | undefined,
  ) {}

  static async load(
    modelPath: string,
    options: { threads?: number; centre?: EmbeddingCentre } = {},
  ): Promise<LearnedLogoEmbedder> {
    const centre = options.centre ?? shippedCentre;
    const [model, bytes] = await Promise.all([
      OnnxEmbedder.load({ ...LOGO_NET, modelPath, intraOpNumThreads: options.threads ?? 1 }),
      readFile(modelPath),
    ]);
    const mine = createHash('sha256').update(bytes).digest('hex') === centre.model_sha256;
    if (mine && centre.vector.length !== model.dimensions) throw new Error('the embedding centre has the wrong length');
    return new LearnedLogoEmbedder(model, mine ? centre.vector : undefined);
  }

  async embed(image: NormalizedImage, options?: { signal?: AbortSignal }): Promise<Float32Array> {
    return this.finish(await this.model.embed(crop(image, WHOLE, LOGO_NET_INPUT), options));
  }

  async embedWindows(
    image: NormalizedImage,
    windows: readonly ImageWindow[],
    options?: { signal?: AbortSignal },
  ): Promise<Float32Array[]> {
    const vectors = await this.model.embedMany(
      windows.map((window) => crop(image, window, LOGO_NET_INPUT)),
      options,
    );
    return vectors.map((vector) => this.finish(vector));
  }

  private finish(vector: Float32Array): Float32Array {
    return this.centre ? centred(vector, this.centre) : vector;
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
