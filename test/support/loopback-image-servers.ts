/**
 * HTTP servers on this machine's loopback for the fetchImageSafely tests. Servers listen on `::` (dual stack), so
 * 127.0.0.1, 127.0.0.2, ::1 and ::ffff:127.0.0.1 all reach them, and each counts the TCP connections it accepts, so
 * "never contacted" is a real observation. A loopback server is exactly what fetchImageSafely must refuse: `allowing`
 * builds the `allowAddress` test hook that lets given servers through, on their ports only.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';
import { ServiceError } from '../../shared/errors';
import type { FetchImageOptions, ResolvedAddress } from '../../shared/imaging/fetch-image-safely';

export interface LoopbackServer {
  port: number;
  connections: number;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  closed: Promise<void>[];
  close(): Promise<void>;
}

const servers: LoopbackServer[] = [];

/** A server answering with `handle`, closed by `closeLoopbackServers` (call it in afterEach). */
export async function startServer(
  handle: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<LoopbackServer> {
  const server = http.createServer((request, response) => {
    state.requests.push({ url: request.url ?? '', headers: request.headers });
    handle(request, response);
  });
  const state: LoopbackServer = {
    port: 0,
    connections: 0,
    requests: [],
    closed: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket: Socket) => {
    state.connections++;
    state.closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  state.port = (server.address() as AddressInfo).port;
  servers.push(state);
  return state;
}

/** For a suite: the red PNG made before its tests, and every server it started closed after each test. */
export function useLoopbackServers(): void {
  beforeAll(redSquarePng);
  afterEach(closeLoopbackServers);
}

export async function closeLoopbackServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

let png: Buffer | undefined;

/** A 32x32 red PNG, made with sharp once. */
export async function redSquarePng(): Promise<Buffer> {
  png ??= await sharp({ create: { width: 32, height: 32, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  return png;
}

/** Answers with the PNG of `redSquarePng` (which must have been awaited first, e.g. in beforeAll). */
export const servePng = (_request: http.IncomingMessage, response: http.ServerResponse): void => {
  if (!png) throw new Error('await redSquarePng() before serving it');
  response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
  response.end(png);
};

/** The hook that lets `server` (and only it) count as public: loopback addresses, on its port. */
export const allowing =
  (...allowed: LoopbackServer[]): FetchImageOptions['allowAddress'] =>
  (address, port) =>
    ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(address) && allowed.some((server) => server.port === port);

export const resolvingTo = (...addresses: string[]): jest.Mock<Promise<ResolvedAddress[]>, [string]> =>
  jest.fn(async (_host: string) => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

/** The ServiceError the promise rejects with; fails when it resolves or rejects with anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected the fetch to fail');
}

export const reason = (error: ServiceError): string => String(error.details?.reason);
