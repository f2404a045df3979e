/**
 * The learned logo embedder (builders/logo-embedder, model card data/models/logo-embedder/MODEL_CARD.md) run
 * in-process with onnxruntime-node, in the Lambda as on a laptop.
 *
 * It sees the service's normalised picture (224 x 224) area-averaged down to its 64 x 64 input, or a window of it
 * (regions.ts) resampled the same way; all windows of one picture go through the model in one batched run.
 * Input: float32 NCHW, (pixel / 255 - 0.5) / 0.5; output: 128 values, L2-normalised.
 */
import path from 'node:path';
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

export class LearnedLogoEmbedder implements Embedder {
  readonly name = LOGO_NET.name!;
  readonly dimensions = LOGO_NET.dimensions!;

  private constructor(private readonly model: OnnxEmbedder) {}

  static async load(modelPath: string, options: { threads?: number } = {}): Promise<LearnedLogoEmbedder> {
    return new LearnedLogoEmbedder(
      await OnnxEmbedder.load({ ...LOGO_NET, modelPath, intraOpNumThreads: options.threads ?? 1 }),
    );
  }

  embed(image: NormalizedImage, options?: { signal?: AbortSignal }): Promise<Float32Array> {
    return this.model.embed(crop(image, WHOLE, LOGO_NET_INPUT), options);
  }

  embedWindows(
    image: NormalizedImage,
    windows: readonly ImageWindow[],
    options?: { signal?: AbortSignal },
  ): Promise<Float32Array[]> {
    return this.model.embedMany(
      windows.map((window) => crop(image, window, LOGO_NET_INPUT)),
      options,
    );
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
