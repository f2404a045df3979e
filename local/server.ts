/**
 * The local stand-in for API Gateway: a small hono server that turns each HTTP request into an API Gateway v2
 * event, calls the same Lambda handler that runs in AWS, and turns its result back into HTTP.
 */
import { getRequestListener, RequestError, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { createServer, maxHeaderSize as defaultMaxHeaderSize, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  HeadersTooLargeError,
  MalformedRequestError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  type ServiceError,
} from '../shared/errors';
import { API_FUNCTION_TIMEOUT_SECONDS, MAX_REQUEST_BODY_BYTES } from '../functions/limits';
import { matchPath } from '../functions/routes';
import { lambdaContext, toApiGatewayEvent } from './lambda-event';

export type LambdaHttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export interface LocalRoute {
  method: string;
  /** As in functions/routes.ts: a `{name}` segment is a path parameter. */
  path: string;
  functionName: string;
  handler: LambdaHttpHandler;
}

export interface LocalServerOptions {
  routes: LocalRoute[];
  /** Answers every request no route matches (404 / 405). */
  fallback: LambdaHttpHandler;
  /** The cap on a request body (default: the functions' own, functions/limits.ts). */
  gatewayMaxBodyBytes?: number;
  /** The functions' timeout (default: the one every environment deploys, functions/limits.ts). */
  timeoutMs?: number;
}

class BodyTooLargeError extends Error {
  constructor(readonly receivedBytes: number) {
    super(`more than ${receivedBytes} bytes`);
  }
}

/**
 * What the front door refuses before any function runs, in the functions' own envelope, so that a client sees one
 * error shape whatever layer answered.
 */
function refusal(error: ServiceError): { status: number; headers: Record<string, string>; body: string } {
  const requestId = randomUUID();
  const body = JSON.stringify({
    error: {
      code: error.code,
      message: error.messages.en,
      request_id: requestId,
      ...(error.details ? { details: error.details } : {}),
    },
  });
  return {
    status: error.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId, ...error.headers },
    body,
  };
}

function refusalResponse(error: ServiceError): Response {
  const { status, headers, body } = refusal(error);
  return new Response(body, { status, headers });
}

/**
 * For a connection whose request node's parser gave up on: the answer is written to the socket, then it closes.
 * An answer to HEAD carries no body, or the client would read it as the start of a next response.
 */
function writeRefusal(socket: Duplex, error: ServiceError, requestBytes?: Buffer): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, headers, body } = refusal(error);
  const isHead = requestBytes?.subarray(0, 5).toString('latin1') === 'HEAD ';
  const lines = Object.entries({
    ...headers,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  }).map(([k, v]) => `${k}: ${v}`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${isHead ? '' : body}`);
}

/** node's parser errors (`HPE_*`) as the documented refusals. */
function parserRefusal(error: NodeJS.ErrnoException, headerLimit: number): ServiceError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HeadersTooLargeError(headerLimit);
    case 'HPE_INVALID_METHOD':
      return new MalformedRequestError('the method is not one HTTP defines');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new MalformedRequestError('the request did not arrive in time');
    default:
      return new MalformedRequestError(
        `the request line or headers are not valid HTTP/1.1 (${error.code ?? 'parse error'})`,
      );
  }
}

async function readCapped(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(total);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function toHttpResponse(result: APIGatewayProxyResultV2): Response {
  if (typeof result === 'string')
    return new Response(result, { status: 200, headers: { 'Content-Type': 'application/json' } });
  const headers = new Headers();
  for (const [k, v] of Object.entries(result.headers ?? {})) headers.set(k, String(v));
  const body =
    result.body === undefined ? null : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  return new Response(body, { status: result.statusCode ?? 200, headers });
}

const FUNCTION_TIMED_OUT = Symbol('function timed out');

/**
 * Lambda stops a function at its timeout and API Gateway answers for it; here the answer is given at the same
 * moment (the handler's own work cannot be stopped in this process, and its late result is dropped).
 */
async function withinDeadline<T>(result: Promise<T>, timeoutMs: number): Promise<T | typeof FUNCTION_TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<typeof FUNCTION_TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(FUNCTION_TIMED_OUT), timeoutMs);
  });
  try {
    return await Promise.race([result, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The gateway's own 5xx, in the envelope the deployed API's gateway responses give it (infra/constructs/rest-api.ts). */
export const GATEWAY_5XX_MESSAGE =
  'The service could not complete this request. Quote the request id if you contact support.';

function gatewayResponse(status: number, code: string, message: string, requestId: string): Response {
  return new Response(JSON.stringify({ error: { code, message, request_id: requestId } }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId },
  });
}

/** The route of a request as API Gateway picks it: an exact path before a templated one; its path parameters. */
function routeOf(
  routes: readonly LocalRoute[],
  method: string,
  path: string,
): { route: LocalRoute; pathParameters?: Record<string, string> } | undefined {
  const exact = routes.find((r) => r.method === method && r.path === path);
  if (exact) return { route: exact };
  for (const route of routes) {
    if (route.method !== method || !route.path.includes('{')) continue;
    const pathParameters = matchPath(route.path, path);
    if (pathParameters) return { route, pathParameters };
  }
  return undefined;
}

export function createLocalApp(options: LocalServerOptions): Hono<{ Bindings: HttpBindings }> {
  const maxBody = options.gatewayMaxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
  const timeoutMs = options.timeoutMs ?? API_FUNCTION_TIMEOUT_SECONDS * 1000;
  const app = new Hono<{ Bindings: HttpBindings }>();

  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    // HEAD is answered as GET would be, without the body (node's server writes none for a HEAD).
    const isHead = c.req.method === 'HEAD';
    const method = isHead ? 'GET' : c.req.method;
    const matched = routeOf(options.routes, method, url.pathname);
    const route = matched?.route;
    // A declared length over the cap is refused before reading: it is the body's true size.
    const declared = Number(c.req.header('content-length'));
    if (Number.isSafeInteger(declared) && declared > maxBody)
      return refusalResponse(new PayloadTooLargeError(maxBody, declared));
    let body: Uint8Array;
    try {
      body = await readCapped(c.req.raw.body, maxBody);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      // Without a declared length, only what was read before stopping is known.
      return refusalResponse(new PayloadTooLargeError(maxBody, error.receivedBytes, true));
    }
    const event = toApiGatewayEvent({
      method: route ? method : c.req.method,
      url,
      headers: c.req.raw.headers,
      body,
      sourceIp: c.env?.incoming?.socket?.remoteAddress ?? '127.0.0.1',
      routeKey: route ? `${route.method} ${route.path}` : '$default',
      ...(matched?.pathParameters ? { pathParameters: matched.pathParameters } : {}),
    });
    const functionName = route?.functionName ?? 'not-found';
    const result = await withinDeadline(
      (route?.handler ?? options.fallback)(event, lambdaContext(functionName, timeoutMs)),
      timeoutMs,
    );
    if (result === FUNCTION_TIMED_OUT)
      return gatewayResponse(502, 'internal_error', GATEWAY_5XX_MESSAGE, event.requestContext.requestId);
    const response = toHttpResponse(result);
    return isHead ? new Response(null, { status: response.status, headers: response.headers }) : response;
  });

  app.onError((error, c) => {
    console.error('local server error', error);
    return c.json(
      { error: { code: 'internal_error', message: 'Something went wrong on our side.', request_id: randomUUID() } },
      500,
    );
  });
  return app;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the app on a port. Requests hono cannot turn into a Request (a bad Host, a backslash in the path, `*`) and
 * requests node's parser refuses (an unknown method, oversized headers, a broken request line) get the documented
 * envelope rather than node's bare 400 or 431; CONNECT gets a 405; an `Expect` other than 100-continue is ignored.
 */
export function listen(
  app: Hono<{ Bindings: HttpBindings }>,
  options: { port: number; hostname?: string },
): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const requestListener = getRequestListener(app.fetch, {
    hostname,
    errorHandler: (error) =>
      refusalResponse(
        new MalformedRequestError(
          error instanceof RequestError ? error.message.toLowerCase() : 'the request could not be read',
        ),
      ),
  });
  const server = createServer(requestListener);
  const headerLimit = defaultMaxHeaderSize;
  server.on('checkExpectation', requestListener);
  server.on('connect', (_request, socket: Duplex) =>
    writeRefusal(socket, new MethodNotAllowedError('CONNECT', ['POST'])),
  );
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    writeRefusal(socket, parserRefusal(error, headerLimit), error.rawPacket);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, hostname, () => {
      const info = server.address() as AddressInfo;
      resolve({
        url: `http://${hostname}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
