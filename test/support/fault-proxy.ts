/**
 * A TCP proxy on loopback in front of a real server (DynamoDB Local, an endpoint), for fault tests: it passes the
 * bytes through unchanged, and on demand delays every answer, or cuts every connection. The service under test
 * talks to the proxy's endpoint as it would to the server itself.
 */
import { createServer, connect, type Socket } from 'node:net';

export interface FaultProxy {
  endpoint: string;
  port: number;
  /** Each chunk of the server's answers is held this long before it is passed on. */
  delayMs: number;
  /** Open connections are cut and new ones refused at once (as a dead host that sends resets would). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host?: string; port: number }): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  const proxy: FaultProxy = {
    endpoint: '',
    port: 0,
    delayMs: 0,
    setDown(value) {
      down = value;
      if (value) for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host ?? '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (proxy.delayMs <= 0) client.write(chunk);
      else setTimeout(() => client.writable && client.write(chunk), proxy.delayMs);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => setTimeout(() => client.end(), proxy.delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  proxy.port = typeof address === 'object' && address ? address.port : 0;
  proxy.endpoint = `http://127.0.0.1:${proxy.port}`;
  return proxy;
}
