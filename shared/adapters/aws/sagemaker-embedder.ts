/**
 * Image embeddings from a SageMaker real-time endpoint, over `@aws-sdk/client-sagemaker-runtime` InvokeEndpoint.
 *
 * Wire contract: shared/contracts/image-embedding.v1.json, the one document the endpoint's inference code
 * (model-package/code/inference.py) and the local SageMaker-compatible server also follow:
 *
 *   request   POST /endpoints/<EndpointName>/invocations, Content-Type and Accept application/json,
 *             {"inputs": {"image_b64": "<base64 PNG>"}}: the NormalizedImage as a 224 x 224 PNG.
 *   response  200 {"embedding": [d numbers], "model": {"id", "version": "sha256:...", "dimensions": d}}.
 *             Any other shape, another d, or a non-finite number is a failure. The vector is L2-normalised here
 *             whether or not the endpoint already did it.
 *   errors    the container's refusals (its status and {"error": {"code", "message"}}) reach the client as SageMaker's
 *             424 ModelError.
 *
 * Time budget: each call is aborted when the caller's signal fires or after `budgetMs` (default 1500 ms), whichever
 * comes first. Build the SageMakerRuntimeClient with `maxAttempts: 1` (or a small retry budget): a retry after a
 * throttle rarely fits inside the budget, and the caller falls back to the in-process index instead.
 *
 * Errors, all SearchBackendUnavailableError('clip-sagemaker', reason):
 *   timeout    the budget ran out or the caller aborted
 *   throttled  ThrottlingException, or any HTTP 429
 *   failed     ModelError (the container answered an error), 5xx, ValidationError, an unusable body
 */
import { InvokeEndpointCommand, type SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import sharp from 'sharp';
import { SearchBackendUnavailableError } from '../../imaging/image-errors';
import type { Embedder, NormalizedImage } from '../../ports';
import { classifyDependencyFailure } from '../../dependency-failures';
import { embeddingRequest, parseEmbeddingResponse } from '../../contracts/image-embedding';

export const CLIP_DIMENSIONS = 512;
export const CLIP_INPUT_SIZE = 224;
const BACKEND = 'clip-sagemaker';

export interface SageMakerClipEmbedderOptions {
  /** Longest a call may take, retries included (default 1500 ms). */
  budgetMs?: number;
}

export class SageMakerClipEmbedder implements Embedder {
  /** `clip`: the same vectors as a CLIP ViT-B/32 ONNX export, so both may share one index. */
  readonly name = 'clip';
  readonly dimensions = CLIP_DIMENSIONS;
  private readonly budgetMs: number;

  constructor(
    private readonly client: SageMakerRuntimeClient,
    private readonly endpointName: string,
    options: SageMakerClipEmbedderOptions = {},
  ) {
    this.budgetMs = options.budgetMs ?? 1500;
    if (!(this.budgetMs > 0)) throw new Error(`budgetMs must be > 0, got ${this.budgetMs}`);
  }

  async embed(image: NormalizedImage, options?: { signal?: AbortSignal }): Promise<Float32Array> {
    const budget = AbortSignal.timeout(this.budgetMs);
    const signal = options?.signal ? AbortSignal.any([options.signal, budget]) : budget;
    if (signal.aborted) throw new SearchBackendUnavailableError(BACKEND, 'timeout', { cause: signal.reason });

    const body = embeddingRequest([await encodePng(image)]);
    let responseBody: Uint8Array | undefined;
    try {
      const out = await this.client.send(
        new InvokeEndpointCommand({
          EndpointName: this.endpointName,
          ContentType: 'application/json',
          Accept: 'application/json',
          Body: new TextEncoder().encode(body),
        }),
        { abortSignal: signal },
      );
      responseBody = out.Body;
    } catch (err) {
      throw new SearchBackendUnavailableError(BACKEND, reasonOf(err, signal), { cause: err });
    }
    try {
      return l2Normalise(parseEmbeddingResponse(responseBody, { images: 1, dimensions: CLIP_DIMENSIONS }).vectors[0]!);
    } catch (err) {
      throw new SearchBackendUnavailableError(BACKEND, 'failed', { cause: err });
    }
  }
}

/** The 224 x 224 PNG the endpoint receives. */
export async function encodePng(image: NormalizedImage): Promise<Buffer> {
  if (image.rgb.length !== image.width * image.height * 3) {
    throw new Error(`not an RGB image: ${image.width}x${image.height} with ${image.rgb.length} bytes`);
  }
  let pipeline = sharp(Buffer.from(image.rgb.buffer, image.rgb.byteOffset, image.rgb.byteLength), {
    raw: { width: image.width, height: image.height, channels: 3 },
  });
  if (image.width !== CLIP_INPUT_SIZE || image.height !== CLIP_INPUT_SIZE) {
    pipeline = pipeline.resize(CLIP_INPUT_SIZE, CLIP_INPUT_SIZE, { fit: 'fill' });
  }
  return pipeline.png({ compressionLevel: 3 }).toBuffer();
}

function l2Normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (!(norm > 0) || !Number.isFinite(norm)) throw new Error('the embedding is all zeros and cannot be normalised');
  return vector.map((v) => v / norm);
}

function reasonOf(err: unknown, signal: AbortSignal): 'timeout' | 'throttled' | 'failed' {
  const kind = classifyDependencyFailure(err, signal);
  return kind === 'unavailable' ? 'failed' : kind;
}
