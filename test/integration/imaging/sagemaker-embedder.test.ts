/**
 * The SageMaker CLIP embedder with the REAL SageMakerRuntimeClient over HTTP.
 *
 * A SageMaker endpoint has no local form, so the remote side is test/support/sagemaker-endpoint-server.ts: it speaks
 * the SageMaker runtime's HTTP (POST /endpoints/<name>/invocations, its error headers and bodies) and answers the
 * wire contract of shared/adapters/aws/sagemaker-embedder.ts from a real local embedder. Nothing in the SDK is mocked.
 *
 * The local embedder behind the endpoint is a 512-bin colour histogram (8 x 8 x 8 RGB bins): CLIP's dimension, no
 * model file, and a result the test can recompute to prove that the image crossed the wire intact.
 */
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { startSageMakerEndpointServer, type LocalSageMakerEndpoint } from '../../support/sagemaker-endpoint-server';
import { SageMakerClipEmbedder } from '../../../shared/adapters/aws/sagemaker-embedder';
import { SearchBackendUnavailableError } from '../../../shared/imaging/image-errors';
import type { Embedder, NormalizedImage } from '../../../shared/ports';

const histogramEmbedder: Embedder = {
  name: 'colour-histogram',
  dimensions: 512,
  async embed(image: NormalizedImage): Promise<Float32Array> {
    const bins = new Float32Array(512);
    for (let i = 0; i < image.rgb.length; i += 3) {
      bins[((image.rgb[i]! >> 5) << 6) | ((image.rgb[i + 1]! >> 5) << 3) | (image.rgb[i + 2]! >> 5)]! += 1;
    }
    return bins;
  },
};

/** A 224 x 224 logo: a disc of one colour on white, with a bar of another. */
function logoImage(
  size = 224,
  disc: [number, number, number] = [200, 30, 40],
  bar: [number, number, number] = [20, 60, 180],
): NormalizedImage {
  const rgb = new Uint8Array(size * size * 3).fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = x / size - 0.5;
      const v = y / size - 0.5;
      const colour = u * u + v * v < 0.09 ? disc : Math.abs(v) < 0.05 ? bar : undefined;
      if (colour) rgb.set(colour, (y * size + x) * 3);
    }
  }
  return { rgb, width: size, height: size };
}

const MODEL = { id: 'colour-histogram', version: `sha256:${'0'.repeat(64)}`, dimensions: 512 };

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

function normalised(v: Float32Array): Float32Array {
  const n = norm(v);
  return v.map((x) => x / n);
}

async function backendError(promise: Promise<unknown>): Promise<SearchBackendUnavailableError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SearchBackendUnavailableError);
  return err as SearchBackendUnavailableError;
}

describe('SageMakerClipEmbedder (real SageMakerRuntimeClient, local SageMaker-compatible endpoint)', () => {
  let endpoint: LocalSageMakerEndpoint;
  let client: SageMakerRuntimeClient;

  beforeAll(async () => {
    endpoint = await startSageMakerEndpointServer({ embedder: histogramEmbedder, endpointName: 'clip-vit-b32-test' });
    client = new SageMakerRuntimeClient({
      endpoint: endpoint.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'local-secret' },
      maxAttempts: 1,
    });
  });

  afterAll(async () => {
    client.destroy();
    await endpoint.close();
  });

  afterEach(() => endpoint.reset());

  it("sends the image as a 224 x 224 PNG in JSON and returns the endpoint's 512 values, L2-normalised", async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName);
    const image = logoImage();
    const before = endpoint.invocations.length;

    // Act
    const vector = await embedder.embed(image);

    // Assert
    const expected = normalised(await histogramEmbedder.embed(image));
    expect(embedder.name).toBe('clip');
    expect(vector).toHaveLength(512);
    expect(norm(vector)).toBeCloseTo(1, 5);
    expect(Array.from(vector)).toEqual(Array.from(expected)); // PNG is lossless: the same pixels reached the model
    const received = endpoint.invocations.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      endpointName: 'clip-vit-b32-test',
      contentType: 'application/json',
      accept: 'application/json',
      image: { width: 224, height: 224, format: 'png' },
    });
  });

  it('resizes a normalised image of another size to 224 x 224 before sending it', async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName);

    // Act
    await embedder.embed(logoImage(96));

    // Assert
    expect(endpoint.invocations.at(-1)?.image).toEqual({ width: 224, height: 224, format: 'png' });
  });

  it('gives up on a slow endpoint when its budget runs out: timeout, well before the endpoint answers', async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName, { budgetMs: 300 });
    endpoint.behaviour.delayMs = 5000;
    const started = Date.now();

    // Act
    const err = await backendError(embedder.embed(logoImage()));

    // Assert
    const elapsed = Date.now() - started;
    expect(err.reason).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5000); // the budget is honoured; the margin only absorbs a loaded machine
  });

  it('uses 1500 ms as its default budget', async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName);
    endpoint.behaviour.delayMs = 5000;
    const started = Date.now();

    // Act
    const err = await backendError(embedder.embed(logoImage()));

    // Assert
    expect(err.reason).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops when the caller's signal fires first (timeout)", async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName, { budgetMs: 10_000 });
    endpoint.behaviour.delayMs = 5000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();

    // Act
    const err = await backendError(embedder.embed(logoImage(), { signal: controller.signal }));

    // Assert
    expect(err.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports 429 ThrottlingException as throttled', async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName);
    endpoint.behaviour.throttle = true;

    // Act
    const err = await backendError(embedder.embed(logoImage()));

    // Assert
    expect(err.reason).toBe('throttled');
    expect(err.backend).toBe('clip-sagemaker');
    expect((err.cause as Error).name).toBe('ThrottlingException');
  });

  it('reports a ModelError (the container failed, 424) as failed', async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName);
    endpoint.behaviour.modelError = { originalStatusCode: 500, message: 'CUDA out of memory' };

    // Act
    const err = await backendError(embedder.embed(logoImage()));

    // Assert
    expect(err.reason).toBe('failed');
    expect(err.cause).toMatchObject({
      name: 'ModelError',
      OriginalStatusCode: 500,
      OriginalMessage: 'CUDA out of memory',
    });
  });

  it.each([[500], [503]])('reports a bare HTTP %i as failed', async (status) => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName);
    endpoint.behaviour.failStatus = status;

    // Act
    const err = await backendError(embedder.embed(logoImage()));

    // Assert
    expect(err.reason).toBe('failed');
    expect((err.cause as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(status);
  });

  it.each([
    ['a body that is not JSON', 'Traceback (most recent call last): ...', /not JSON/],
    [
      'an embedding of the wrong length',
      JSON.stringify({ embedding: [0.1, 0.2, 0.3], model: MODEL }),
      /returned 3 values, expected 512/,
    ],
    [
      'an object without an embedding',
      JSON.stringify({ predictions: [], model: MODEL }),
      /fields the contract does not: predictions/,
    ],
    ['a model but no vector', JSON.stringify({ model: MODEL }), /no "embedding" array/],
    [
      'a non-numeric value',
      JSON.stringify({ embedding: [...Array<number>(511).fill(0.1), 'x'], model: MODEL }),
      /embedding\[511\]/,
    ],
    ['an all-zero embedding', JSON.stringify({ embedding: Array<number>(512).fill(0), model: MODEL }), /all zeros/],
    [
      "the Hugging Face toolkit's plain list (not the contract)",
      JSON.stringify([Array<number>(512).fill(0.1)]),
      /not a JSON object/,
    ],
    [
      'a batch shape for one image',
      JSON.stringify({ embeddings: [Array<number>(512).fill(0.1)], model: MODEL }),
      /no "embedding" array/,
    ],
    ['no model', JSON.stringify({ embedding: Array<number>(512).fill(0.1) }), /no "model"/],
    [
      'a model of other dimensions',
      JSON.stringify({ embedding: Array<number>(512).fill(0.1), model: { ...MODEL, dimensions: 768 } }),
      /serves 768 dimensions/,
    ],
  ])('reports %s as failed', async (_label, body, why) => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, endpoint.endpointName);
    endpoint.behaviour.badBody = body;

    // Act
    const err = await backendError(embedder.embed(logoImage()));

    // Assert
    expect(err.reason).toBe('failed');
    expect((err.cause as Error).message).toMatch(why);
  });

  it('reports an endpoint that does not exist (400 ValidationError) as failed', async () => {
    // Arrange
    const embedder = new SageMakerClipEmbedder(client, 'no-such-endpoint');

    // Act
    const err = await backendError(embedder.embed(logoImage()));

    // Assert
    expect(err.reason).toBe('failed');
    expect((err.cause as Error).name).toBe('ValidationError');
  });
});
