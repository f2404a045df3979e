/**
 * A local stand-in for a SageMaker real-time endpoint, speaking the same HTTP as the SageMaker runtime API so the
 * real `SageMakerRuntimeClient` (pointed at `http://127.0.0.1:<port>` with any credentials) talks to it unchanged.
 *
 *   POST /endpoints/<name>/invocations
 *   Content-Type: application/json
 *   {"inputs": {"image_b64": "<base64 PNG>"}}   ->   200 {"embedding": [numbers]}
 *
 * (the contract documented in shared/adapters/aws/sagemaker-embedder.ts). The vector comes from any Embedder (the
 * ONNX one, or anything else), given the decoded PNG as an RGB image.
 *
 * Failures are answered the way SageMaker answers them:
 *   unknown endpoint             400  x-amzn-errortype: ValidationError   {"message": "Endpoint ... not found."}
 *   the container's own errors   424  x-amzn-errortype: ModelError        {"ErrorCode", "OriginalStatusCode",
 *   (bad body, bad image)                                                  "OriginalMessage", "LogStreamArn", "Message"}
 *   throttling (knob)            429  x-amzn-errortype: ThrottlingException
 *
 * Knobs (mutable at any time through `behaviour`): delayMs before answering, throttle, failStatus (a bare HTTP
 * error such as 500 or 503 with a plain-text body, as a broken load balancer would send), modelError (a 424 ModelError
 * carrying the container's status and message), badBody (a 200 with exactly this body), responseShape (which of the
 * accepted success shapes to send).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import sharp from 'sharp';
import type { Embedder, NormalizedImage } from '../../shared/ports';

export interface EndpointBehaviour {
  delayMs: number;
  throttle: boolean;
  failStatus?: number;
  modelError?: { originalStatusCode: number; message: string };
  badBody?: string;
  responseShape: 'embedding' | 'list' | 'embeddings';
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
}

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';

function defaultBehaviour(): EndpointBehaviour {
  return { delayMs: 0, throttle: false, responseShape: 'embedding' };
}

export async function startSageMakerEndpointServer(options: SageMakerEndpointServerOptions): Promise<LocalSageMakerEndpoint> {
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

    // From here on this is the container's inference handler: its errors reach the caller as ModelError.
    if (!/^application\/json\b/i.test(received.contentType ?? '')) {
      sendModelError(res, name, 415, `Content-Type must be application/json, got ${received.contentType ?? 'none'}`);
      return;
    }
    const image = await decodeRequestImage(body);
    if (typeof image === 'string') {
      sendModelError(res, name, 400, image);
      return;
    }
    received.image = { width: image.width, height: image.height, format: image.format };
    const vector = await options.embedder.embed({ rgb: image.rgb, width: image.width, height: image.height });
    const values = Array.from(vector);
    const payload =
      behaviour.responseShape === 'list'
        ? [values]
        : behaviour.responseShape === 'embeddings'
          ? { embeddings: [values] }
          : { embedding: values };
    sendJson(res, 200, payload);
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
      Object.assign(behaviour, defaultBehaviour(), { failStatus: undefined, modelError: undefined, badBody: undefined });
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

async function decodeRequestImage(
  body: Buffer,
): Promise<(NormalizedImage & { format: string }) | string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'the request body is not JSON';
  }
  const inputs = (parsed as { inputs?: { image_b64?: unknown } } | null)?.inputs;
  const b64 = inputs?.image_b64;
  if (typeof b64 !== 'string' || b64.length === 0) return 'expected {"inputs": {"image_b64": "<base64 PNG>"}}';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return 'inputs.image_b64 is not base64';
  try {
    const decoded = sharp(Buffer.from(b64, 'base64'), { limitInputPixels: 4096 * 4096 });
    const meta = await decoded.metadata();
    const { data, info } = await decoded
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) return `decoded image has ${info.channels} channels, expected 3`;
    return { rgb: new Uint8Array(data), width: info.width, height: info.height, format: meta.format ?? 'unknown' };
  } catch (err) {
    return `inputs.image_b64 is not a readable image (${(err as Error).message})`;
  }
}

function sendModelError(res: ServerResponse, endpointName: string, originalStatus: number, originalMessage: string): void {
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
function delayUnlessClosed(
  res: ServerResponse,
  ms: number,
  timers: Set<NodeJS.Timeout>,
): Promise<boolean> {
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
