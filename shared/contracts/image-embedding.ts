/**
 * The image-embedding endpoint's contract (image-embedding.v1.json, the one document) as the TypeScript side reads
 * it: the request the client builds, the checks the endpoint makes before any inference (the same as the inference
 * code's, model-package/code/inference.py, in the same order), and the one response shape the client accepts.
 * Pure: no SDK, no image decoding (the PNG's size is read from its header).
 */
import contract from './image-embedding.v1.json';

export const IMAGE_EMBEDDING_CONTRACT = contract;
export const EMBEDDING_LIMITS = contract.limits;

export type EmbeddingErrorCode = keyof typeof contract.errors.codes;

export class EmbeddingContractError extends Error {
  readonly status: number;
  constructor(
    readonly code: EmbeddingErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddingContractError';
    this.status = contract.errors.codes[code];
  }

  body(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export interface EmbeddingModel {
  id: string;
  version: string;
  dimensions: number;
}

export function embeddingRequest(pngs: readonly Buffer[]): string {
  const items = pngs.map((png) => ({ image_b64: png.toString('base64') }));
  return JSON.stringify({ inputs: items.length === 1 ? items[0] : items });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * What the endpoint refuses before inference, as it refuses it; otherwise the PNGs and whether it was a batch.
 * Decoding the PNGs (a truncated file) is left to the caller, which refuses a failure as `image_unreadable`.
 */
export function checkEmbeddingRequest(
  body: Buffer,
  contentType: string | undefined,
  accept?: string,
): { pngs: Buffer[]; batch: boolean } {
  if (accept && !contract.transport.accept.includes(mediaType(accept)))
    throw new EmbeddingContractError('not_acceptable', `Accept must be application/json, got ${accept}`);
  if (mediaType(contentType) !== contract.transport.contentType) {
    throw new EmbeddingContractError(
      'unsupported_media_type',
      `Content-Type must be application/json, got ${contentType ?? 'none'}`,
    );
  }
  if (body.length > contract.limits.maxRequestBytes) {
    throw new EmbeddingContractError(
      'payload_too_large',
      `the body is ${body.length} bytes; at most ${contract.limits.maxRequestBytes}`,
    );
  }
  let request: unknown;
  try {
    request = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new EmbeddingContractError('invalid_json', 'the body is not UTF-8 JSON');
  }
  if (
    request === null ||
    typeof request !== 'object' ||
    Array.isArray(request) ||
    Object.keys(request).join() !== 'inputs'
  ) {
    throw new EmbeddingContractError(
      'invalid_request',
      'the body must be {"inputs": {"image_b64": ...}} or {"inputs": [{"image_b64": ...}, ...]}',
    );
  }
  const inputs = (request as { inputs: unknown }).inputs;
  const batch = Array.isArray(inputs);
  const items: unknown[] = batch ? inputs : [inputs];
  if (batch && items.length === 0)
    throw new EmbeddingContractError('invalid_request', 'inputs must hold at least one image');
  if (batch && items.length > contract.limits.maxBatch) {
    throw new EmbeddingContractError(
      'batch_too_large',
      `at most ${contract.limits.maxBatch} images per request; got ${items.length}`,
    );
  }
  const pngs = items.map((item, index) => {
    const where = batch ? `inputs[${index}]` : 'inputs';
    if (
      item === null ||
      typeof item !== 'object' ||
      Array.isArray(item) ||
      Object.keys(item).join() !== 'image_b64' ||
      typeof (item as { image_b64: unknown }).image_b64 !== 'string'
    ) {
      throw new EmbeddingContractError('invalid_request', `${where} must be {"image_b64": "<base64 PNG>"}`);
    }
    return pngOf((item as { image_b64: string }).image_b64, where);
  });
  return { pngs, batch };
}

function pngOf(text: string, where: string): Buffer {
  if (text.length < 4 || text.length % 4 !== 0 || !BASE64.test(text))
    throw new EmbeddingContractError('image_unreadable', `${where}.image_b64 is not standard padded base64`);
  const bytes = Buffer.from(text, 'base64');
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.length < 24)
    throw new EmbeddingContractError('image_unreadable', `${where}.image_b64 is not a PNG`);
  // IHDR is the first chunk: width and height, big-endian, at bytes 16 and 20.
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const { minImageSide, maxImageSide } = contract.limits;
  if (Math.min(width, height) < minImageSide || Math.max(width, height) > maxImageSide) {
    throw new EmbeddingContractError(
      'image_size_unsupported',
      `${where} is ${width} x ${height}; each side must be ${minImageSide} to ${maxImageSide} pixels`,
    );
  }
  return bytes;
}

/**
 * The vectors of a 200 answer, in the one shape the contract allows: `embedding` for one image, `embeddings` for a
 * batch (as many as sent), each of `model.dimensions` finite numbers, `model.dimensions` the dimensions expected.
 */
export function parseEmbeddingResponse(
  body: Uint8Array | undefined,
  expected: { images: number; dimensions: number; batch?: boolean },
): { vectors: Float32Array[]; model: EmbeddingModel } {
  if (!body || body.length === 0) throw new Error('the endpoint returned an empty body');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new Error('the endpoint returned a body that is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('the endpoint body is not a JSON object');
  const record = parsed as Record<string, unknown>;
  const model = record.model as EmbeddingModel | undefined;
  if (
    !model ||
    typeof model.id !== 'string' ||
    !/^sha256:[0-9a-f]{64}$/.test(String(model.version)) ||
    !Number.isInteger(model.dimensions)
  ) {
    throw new Error('the endpoint body has no "model" {id, version, dimensions}');
  }
  if (model.dimensions !== expected.dimensions)
    throw new Error(`the endpoint serves ${model.dimensions} dimensions, expected ${expected.dimensions}`);
  const extra = Object.keys(record).filter((k) => !['embedding', 'embeddings', 'model'].includes(k));
  if (extra.length) throw new Error(`the endpoint body has fields the contract does not: ${extra.join(', ')}`);
  // A single image is answered by `embedding`, a batch (even of one) by `embeddings`: never the other.
  const batch = expected.batch ?? expected.images > 1;
  const rows =
    !batch && 'embedding' in record && !('embeddings' in record)
      ? [record.embedding]
      : batch && !('embedding' in record) && Array.isArray(record.embeddings)
        ? record.embeddings
        : undefined;
  if (!rows) throw new Error(`the endpoint body has no ${batch ? '"embeddings"' : '"embedding"'} array`);
  if (rows.length !== expected.images)
    throw new Error(`the endpoint returned ${rows.length} vectors for ${expected.images} images`);
  const vectors = rows.map((row, r) => {
    if (!Array.isArray(row)) throw new Error(`vector ${r} is not an array`);
    if (row.length !== expected.dimensions)
      throw new Error(`the endpoint returned ${row.length} values, expected ${expected.dimensions}`);
    const vector = new Float32Array(row.length);
    row.forEach((v: unknown, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`embedding[${i}] is not a finite number`);
      vector[i] = v;
    });
    return vector;
  });
  return { vectors, model };
}
