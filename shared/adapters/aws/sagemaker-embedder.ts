/**
 * CLIP image embeddings from a SageMaker real-time endpoint (Hugging Face CLIP ViT-B/32), over
 * `@aws-sdk/client-sagemaker-runtime` InvokeEndpoint.
 *
 * Wire contract with the endpoint (its inference handler must implement exactly this):
 *
 *   request   POST /endpoints/<EndpointName>/invocations
 *             Content-Type: application/json      Accept: application/json
 *             {"inputs": {"image_b64": "<base64 PNG, 224 x 224, 8-bit RGB>"}}
 *             The PNG is the NormalizedImage (flattened on white, trimmed, square) resized to 224 x 224 if it is
 *             not that size already. The endpoint runs CLIP's own preprocessing (CLIPImageProcessor: RGB, resize,
 *             centre crop 224, mean/std) and `get_image_features`.
 *
 *   response  200, Content-Type: application/json, one of
 *             {"embedding": [512 numbers]}          (the contract)
 *             [[512 numbers]]                       (the Hugging Face toolkit's plain list output)
 *             {"embeddings": [[512 numbers]]}       (a batch of one)
 *             Any other body, another length or a non-finite number is a failure. The vector is L2-normalised here
 *             whether or not the endpoint already did it.
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
import { SearchBackendUnavailableError } from '../../errors';
import type { Embedder, NormalizedImage } from '../../ports';
import { classifyDependencyFailure } from '../../dependency-failures';

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

    const body = JSON.stringify({ inputs: { image_b64: (await encodePng(image)).toString('base64') } });
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
      return l2Normalise(parseEmbedding(responseBody));
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

/** Reads the vector out of any of the accepted response shapes; throws on anything else. */
export function parseEmbedding(body: Uint8Array | undefined): Float32Array {
  if (!body || body.length === 0) throw new Error('the endpoint returned an empty body');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new Error('the endpoint returned a body that is not JSON');
  }
  let candidate: unknown;
  if (Array.isArray(parsed)) {
    candidate = parsed.length === 1 && Array.isArray(parsed[0]) ? parsed[0] : parsed;
  } else if (parsed && typeof parsed === 'object') {
    const record = parsed as Record<string, unknown>;
    if ('embedding' in record) candidate = record.embedding;
    else if (Array.isArray(record.embeddings) && record.embeddings.length === 1) candidate = record.embeddings[0];
  }
  if (!Array.isArray(candidate)) {
    throw new Error('the endpoint body has no "embedding" array (nor [[...]] / {"embeddings": [[...]]})');
  }
  if (candidate.length !== CLIP_DIMENSIONS) {
    throw new Error(`the endpoint returned ${candidate.length} values, expected ${CLIP_DIMENSIONS}`);
  }
  const vector = new Float32Array(CLIP_DIMENSIONS);
  for (let i = 0; i < CLIP_DIMENSIONS; i++) {
    const v = candidate[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`embedding[${i}] is not a finite number`);
    vector[i] = v;
  }
  return vector;
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
