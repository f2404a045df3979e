/**
 * One contract (shared/contracts/image-embedding.v1.json), three parties, every example of the document:
 *   - the local SageMaker-compatible server, over real HTTP: a valid example answered in the response schema, an
 *     invalid one refused as the real container's code would refuse it, wrapped as SageMaker wraps it (424
 *     ModelError, OriginalStatusCode, OriginalMessage = the container's error body);
 *   - the TypeScript client's request builder and response reader (a request it builds passes the endpoint's checks);
 *   - the inference code the model package carries, through its own tests with Debian's python3 and torch on a small
 *     TorchScript model (model-package/tests/test_inference.py).
 * SageMaker has no local form: the server stands in for it (see test/support/sagemaker-endpoint-server.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import {
  checkEmbeddingRequest,
  embeddingRequest,
  IMAGE_EMBEDDING_CONTRACT,
  parseEmbeddingResponse,
} from '../../../shared/contracts/image-embedding';
import type { Embedder } from '../../../shared/ports';
import { startSageMakerEndpointServer, type LocalSageMakerEndpoint } from '../../support/sagemaker-endpoint-server';

const DIMENSIONS = 8;
/** Mean colour and its spread per channel, plus a constant: enough to tell images apart, and never all zeros. */
const smallEmbedder: Embedder = {
  name: 'mean-colour',
  dimensions: DIMENSIONS,
  async embed(image) {
    const sums = [0, 0, 0];
    for (let i = 0; i < image.rgb.length; i++) sums[i % 3]! += image.rgb[i]!;
    const n = image.rgb.length / 3;
    return Float32Array.from([...sums.map((s) => s / n / 255), 1, 0.5, 0.25, 0.125, 0.0625]);
  },
};

let endpoint: LocalSageMakerEndpoint;

beforeAll(async () => {
  endpoint = await startSageMakerEndpointServer({ embedder: smallEmbedder, endpointName: 'contract-test' });
});
afterAll(async () => endpoint?.close());

type Example = {
  name: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  code?: string;
  vectors?: number;
  shape?: string;
};
const bodyOf = (example: Example) => (example.raw !== undefined ? example.raw : JSON.stringify(example.body));

/** An answer of the endpoint: the embedding fields on success, SageMaker's error envelope on failure. */
interface InvocationAnswer {
  [field: string]: unknown;
  OriginalStatusCode?: number;
  OriginalMessage: string;
}

async function invoke(example: Example): Promise<{ status: number; json: InvocationAnswer; errorType: string | null }> {
  const response = await fetch(`${endpoint.url}/endpoints/contract-test/invocations`, {
    method: 'POST',
    headers: { 'Content-Type': example.contentType ?? 'application/json', Accept: 'application/json' },
    body: bodyOf(example),
  });
  return {
    status: response.status,
    json: (await response.json()) as InvocationAnswer,
    errorType: response.headers.get('x-amzn-errortype'),
  };
}

describe('the local SageMaker-compatible server follows the contract document', () => {
  it.each(IMAGE_EMBEDDING_CONTRACT.examples.valid.map((e) => [e.name, e] as const))(
    'answers the valid example "%s" in the response schema',
    async (_name, example) => {
      const { status, json } = await invoke(example);

      expect(status).toBe(200);
      expect(Object.keys(json).sort()).toEqual([example.shape, 'model'].sort());
      const { vectors, model } = parseEmbeddingResponse(Buffer.from(JSON.stringify(json)), {
        images: example.vectors,
        dimensions: DIMENSIONS,
        batch: example.shape === 'embeddings',
      });
      expect(vectors).toHaveLength(example.vectors);
      expect(model).toEqual({ id: 'mean-colour', version: `sha256:${'0'.repeat(64)}`, dimensions: DIMENSIONS });
    },
  );

  it.each(IMAGE_EMBEDDING_CONTRACT.examples.invalid.map((e) => [e.name, e] as const))(
    'refuses the invalid example "%s" as the container does',
    async (_name, example) => {
      const { status, json, errorType } = await invoke(example as Example);

      expect(status).toBe(424);
      expect(errorType).toBe('ModelError');
      expect(json.OriginalStatusCode).toBe(
        IMAGE_EMBEDDING_CONTRACT.errors.codes[example.code as keyof typeof IMAGE_EMBEDDING_CONTRACT.errors.codes],
      );
      expect(JSON.parse(json.OriginalMessage).error).toEqual({ code: example.code, message: expect.any(String) });
    },
  );

  it('a PNG that passes the header checks but is cut short is image_unreadable, as PIL finds it', async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const { json } = await invoke({
      name: 'cut',
      body: { inputs: { image_b64: png.subarray(0, 40).toString('base64').replace(/=+$/, '').padEnd(56, 'A') } },
    });

    expect(JSON.parse(json.OriginalMessage).error.code).toBe('image_unreadable');
  });
});

describe("the TypeScript client's side of the contract", () => {
  it('builds requests the endpoint accepts: one image, and a batch of the most the contract allows', async () => {
    const png = await sharp({ create: { width: 224, height: 224, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();

    expect(checkEmbeddingRequest(Buffer.from(embeddingRequest([png])), 'application/json')).toMatchObject({
      batch: false,
      pngs: [png],
    });
    const most = Array.from({ length: IMAGE_EMBEDDING_CONTRACT.limits.maxBatch }, () => png);
    expect(
      checkEmbeddingRequest(Buffer.from(embeddingRequest(most)), 'application/json; charset=utf-8').pngs,
    ).toHaveLength(most.length);
  });

  it('reads only the contract response: the right count and dimensions, a pinned model version', () => {
    const model = { id: 'm', version: `sha256:${'a'.repeat(64)}`, dimensions: 2 };
    expect(
      parseEmbeddingResponse(
        Buffer.from(
          JSON.stringify({
            embeddings: [
              [1, 0],
              [0, 1],
            ],
            model,
          }),
        ),
        { images: 2, dimensions: 2 },
      ).vectors,
    ).toHaveLength(2);
    expect(() =>
      parseEmbeddingResponse(Buffer.from(JSON.stringify({ embeddings: [[1, 0]], model })), {
        images: 2,
        dimensions: 2,
      }),
    ).toThrow(/1 vectors for 2 images/);
    expect(() =>
      parseEmbeddingResponse(
        Buffer.from(JSON.stringify({ embedding: [1, 0], model: { ...model, version: 'latest' } })),
        { images: 1, dimensions: 2 },
      ),
    ).toThrow(/no "model"/);
    expect(() =>
      parseEmbeddingResponse(Buffer.from(JSON.stringify({ embedding: [1, 0], model, extra: 1 })), {
        images: 1,
        dimensions: 2,
      }),
    ).toThrow(/extra/);
  });
});

describe('the inference code in the model package', () => {
  it("passes its own tests of every contract example (Debian's python3 and torch, a small TorchScript model)", async () => {
    const root = path.join(__dirname, '../../..');
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        '/usr/bin/python3',
        ['-m', 'unittest', 'discover', '-s', path.join(root, 'model-package/tests'), '-v'],
        { cwd: root, env: { ...process.env, OMP_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1' }, timeout: 120_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });

    expect(output).toMatch(/Ran \d+ tests/);
    expect(code).toBe(0);
    expect(output).toMatch(/test_every_invalid_example_gets_its_code_and_status .*\.\.\. ok/);
    expect(output).toMatch(/test_every_valid_example_is_answered_in_the_response_schema .*\.\.\. ok/);
  }, 150_000);
});
