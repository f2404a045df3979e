/**
 * A local stand-in for a SageMaker real-time endpoint, speaking the same HTTP as the SageMaker runtime API so the
 * real `SageMakerRuntimeClient` (pointed at `http://127.0.0.1:<port>` with any credentials) talks to it unchanged.
 *
 *   POST /endpoints/<name>/invocations
 *   Content-Type: application/json
 *   {"inputs": {"image_b64": "<base64 PNG>"}}   ->   200 {"embedding": [numbers], "model": {...}}
 *   {"inputs": [{"image_b64": ...}, ...]}       ->   200 {"embeddings": [[numbers], ...], "model": {...}}
 *
 * (the contract: shared/contracts/image-embedding.v1.json). It refuses what the real container's inference code
 * refuses, with the same checks (shared/contracts/image-embedding.ts, mirroring model-package/code/inference.py)
 * and the same codes, wrapped as SageMaker wraps them (424 ModelError). The vectors come from any Embedder (the
 * ONNX one, or anything else), given each decoded PNG flattened on white as an RGB image.
 *
 * Failures are answered the way SageMaker answers them:
 *   unknown endpoint             400  x-amzn-errortype: ValidationError   {"message": "Endpoint ... not found."}
 *   the container's own errors   424  x-amzn-errortype: ModelError        {"ErrorCode", "OriginalStatusCode",
 *   (bad body, bad image)                                                  "OriginalMessage", "LogStreamArn", "Message"}
 *   throttling (knob)            429  x-amzn-errortype: ThrottlingException
 *
 * Knobs (mutable at any time through `behaviour`): delayMs before answering, throttle, failStatus (a bare HTTP
 * error such as 500 or 503 with a plain-text body, as a broken load balancer would send), modelError (a 424 ModelError
 * carrying the container's status and message), badBody (a 200 with exactly this body).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import sharp from 'sharp';
import type { Embedder, NormalizedImage } from '../../shared/ports';
import { checkEmbeddingRequest, EmbeddingContractError } from '../../shared/contracts/image-embedding';

export interface EndpointBehaviour {
  delayMs: number;
  throttle: boolean;
  failStatus?: number;
  modelError?: { originalStatusCode: number; message: string };
  badBody?: string;
}

export interface ReceivedInvocation {
  endpointName: string;
  contentType: string | undefined;
  accept: string | undefined;
  /** Size of the decoded image, when the body carried one. */
  image?: { width: number; height: number; format: string };
}

export interface LocalSageMakerEndpoint {
  /** What to give the client as `endpoint`. */
  url: string;
  port: number;
  endpointName: string;
  behaviour: EndpointBehaviour;
  /** Every invocation received, oldest first. */
  invocations: ReceivedInvocation[];
  /** Puts every knob back to "answer normally". */
  reset(): void;
  close(): Promise<void>;
}

export interface SageMakerEndpointServerOptions {
  embedder: Embedder;
  endpointName?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Largest request body accepted (default 8 MiB; SageMaker's own limit is 25 MB). */
  maxBodyBytes?: number;
  /** The `model.version` answered (`sha256:<64 hex>`); zeros unless given. */
  modelVersion?: string;
}

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';

function defaultBehaviour(): EndpointBehaviour {
  return { delayMs: 0, throttle: false };
}

export async function startSageMakerEndpointServer(
  options: SageMakerEndpointServerOptions,
): Promise<LocalSageMakerEndpoint> {
  const endpointName = options.endpointName ?? 'clip-vit-b32';
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const behaviour = defaultBehaviour();
  const invocations: ReceivedInvocation[] = [];
  const sockets = new Set<Socket>();
  const pendingTimers = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req, res) => {
    handleInvocation(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `local endpoint error: ${String(err)}` }, 'InternalFailure');
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handleInvocation(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/endpoints\/([^/?]+)\/invocations(?:\?.*)?$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      sendJson(res, 404, { message: `No route for ${req.method} ${req.url}` }, 'UnknownOperationException');
      return;
    }
    const name = decodeURIComponent(match[1]!);
    const body = await readBody(req, maxBodyBytes);
    const received: ReceivedInvocation = {
      endpointName: name,
      contentType: req.headers['content-type'],
      accept: req.headers.accept,
    };
    invocations.push(received);

    if (name !== endpointName) {
      sendJson(res, 400, { message: `Endpoint ${name} of account ${ACCOUNT} not found.` }, 'ValidationError');
      return;
    }
    if (behaviour.delayMs > 0) {
      const aborted = await delayUnlessClosed(res, behaviour.delayMs, pendingTimers);
      if (aborted) return;
    }
    if (behaviour.throttle) {
      sendJson(res, 429, { message: 'Rate exceeded' }, 'ThrottlingException');
      return;
    }
    if (behaviour.failStatus !== undefined) {
      res.writeHead(behaviour.failStatus, { 'content-type': 'text/plain' });
      res.end(`local endpoint configured to fail with ${behaviour.failStatus}`);
      return;
    }
    if (behaviour.modelError) {
      sendModelError(res, name, behaviour.modelError.originalStatusCode, behaviour.modelError.message);
      return;
    }
    if (behaviour.badBody !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(behaviour.badBody);
      return;
    }

    // From here on this is the container's inference code: its refusals reach the caller as ModelError.
    let request: { pngs: Buffer[]; batch: boolean };
    let images: (NormalizedImage & { format: string })[];
    try {
      request = checkEmbeddingRequest(body, received.contentType, received.accept);
      images = await Promise.all(
        request.pngs.map((png, i) => decodePng(png, request.batch ? `inputs[${i}]` : 'inputs')),
      );
    } catch (error) {
      if (!(error instanceof EmbeddingContractError)) throw error;
      sendModelError(res, name, error.status, JSON.stringify(error.body()));
      return;
    }
    const first = images[0]!;
    received.image = { width: first.width, height: first.height, format: first.format };
    const vectors = await Promise.all(images.map(async (image) => Array.from(await options.embedder.embed(image))));
    const model = {
      id: options.embedder.name,
      version: options.modelVersion ?? `sha256:${'0'.repeat(64)}`,
      dimensions: options.embedder.dimensions,
    };
    sendJson(res, 200, request.batch ? { embeddings: vectors, model } : { embedding: vectors[0], model });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the local endpoint did not get a TCP port');
  const host = options.host ?? '127.0.0.1';

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    endpointName,
    behaviour,
    invocations,
    reset() {
      Object.assign(behaviour, defaultBehaviour(), {
        failStatus: undefined,
        modelError: undefined,
        badBody: undefined,
      });
    },
    close() {
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** A PNG the contract's checks let through, decoded as the container decodes it: flattened on white, 8-bit RGB. */
async function decodePng(png: Buffer, where: string): Promise<NormalizedImage & { format: string }> {
  try {
    const { data, info } = await sharp(png, { limitInputPixels: 4096 * 4096 })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { rgb: new Uint8Array(data), width: info.width, height: info.height, format: 'png' };
  } catch {
    throw new EmbeddingContractError('image_unreadable', `${where}.image_b64 is not a readable PNG`);
  }
}

function sendModelError(
  res: ServerResponse,
  endpointName: string,
  originalStatus: number,
  originalMessage: string,
): void {
  const logStream = `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:/aws/sagemaker/Endpoints/${endpointName}`;
  sendJson(
    res,
    424,
    {
      ErrorCode: originalStatus >= 500 ? 'SERVER_ERROR_FROM_MODEL' : 'CLIENT_ERROR_FROM_MODEL',
      LogStreamArn: logStream,
      OriginalStatusCode: originalStatus,
      OriginalMessage: originalMessage,
      Message:
        `Received ${originalStatus >= 500 ? 'server' : 'client'} error (${originalStatus}) from primary with message ` +
        `"${originalMessage}". See ${logStream} in account ${ACCOUNT} for more information.`,
    },
    'ModelError',
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-amzn-requestid': `local-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
  };
  if (errorType) headers['x-amzn-errortype'] = errorType;
  else headers['x-amzn-invoked-production-variant'] = 'AllTraffic';
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.destroy(new Error(`request body over ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Waits `ms`; resolves true when the client went away first (nothing is answered then). */
function delayUnlessClosed(res: ServerResponse, ms: number, timers: Set<NodeJS.Timeout>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      res.off('close', onClose);
      resolve(false);
    }, ms);
    timers.add(timer);
    const onClose = (): void => {
      clearTimeout(timer);
      timers.delete(timer);
      resolve(true);
    };
    res.once('close', onClose);
  });
}
