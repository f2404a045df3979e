/**
 * The local stand-in for API Gateway: a small hono server that turns each HTTP request into an API Gateway v2
 * event, calls the same Lambda handler that runs in AWS, and turns its result back into HTTP.
 */
import { serve, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { lambdaContext, toApiGatewayEvent } from './lambda-event';

export type LambdaHttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export interface LocalRoute {
  method: string;
  path: string;
  functionName: string;
  handler: LambdaHttpHandler;
}

export interface LocalServerOptions {
  routes: LocalRoute[];
  /** Answers every request no route matches (404 / 405). */
  fallback: LambdaHttpHandler;
  /** API Gateway's own cap on a request body (HTTP API: 10 MB). */
  gatewayMaxBodyBytes?: number;
  /** The functions' timeout. */
  timeoutMs?: number;
}

class BodyTooLargeError extends Error {}

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
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function toHttpResponse(result: APIGatewayProxyResultV2): Response {
  if (typeof result === 'string') return new Response(result, { status: 200, headers: { 'Content-Type': 'application/json' } });
  const headers = new Headers();
  for (const [k, v] of Object.entries(result.headers ?? {})) headers.set(k, String(v));
  const body = result.body === undefined ? null : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  return new Response(body, { status: result.statusCode ?? 200, headers });
}

export function createLocalApp(options: LocalServerOptions): Hono<{ Bindings: HttpBindings }> {
  const maxBody = options.gatewayMaxBodyBytes ?? 10 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const app = new Hono<{ Bindings: HttpBindings }>();

  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    const route = options.routes.find((r) => r.method === c.req.method && r.path === url.pathname);
    let body: Uint8Array;
    try {
      body = await readCapped(c.req.raw.body, maxBody);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      const requestId = randomUUID();
      return c.json(
        { error: { code: 'payload_too_large', message: `The request body exceeds ${maxBody} bytes.`, request_id: requestId } },
        413,
        { 'X-Request-Id': requestId },
      );
    }
    const event = toApiGatewayEvent({
      method: c.req.method,
      url,
      headers: c.req.raw.headers,
      body,
      sourceIp: c.env?.incoming?.socket?.remoteAddress ?? '127.0.0.1',
      routeKey: route ? `${route.method} ${route.path}` : '$default',
    });
    const functionName = route?.functionName ?? 'not-found';
    const result = await (route?.handler ?? options.fallback)(event, lambdaContext(functionName, timeoutMs));
    return toHttpResponse(result);
  });

  app.onError((error, c) => {
    console.error('local server error', error);
    return c.json({ error: { code: 'internal_error', message: 'Something went wrong on our side.', request_id: randomUUID() } }, 500);
  });
  return app;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function listen(app: Hono<{ Bindings: HttpBindings }>, options: { port: number; hostname?: string }): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname }, (info: AddressInfo) => {
      resolve({
        url: `http://${hostname}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', reject);
  });
}
