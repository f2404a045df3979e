/** One body-size limit over real HTTP: the same cap and a true size in the 413, whatever the body's size. */
import { request } from 'node:http';
import type { RunningServer } from '../../local/server';
import { MAX_REQUEST_BODY_BYTES } from '../../functions/limits';
import { createTestStack, type TestStack } from '../support/test-stack';
import { startTestServer } from '../support/test-server';

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  server = await startTestServer(stack);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** Posts `size` bytes of JSON-ish filler, with a Content-Length or chunked; resolves with the answer. */
function post(size: number, chunked: boolean): Promise<{ status: number; body: { error: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/v1/batch-screen`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(size) }),
      },
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString()) }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let left = size;
    const write = (): void => {
      while (left > 0) {
        const piece = chunk.subarray(0, Math.min(left, chunk.length));
        left -= piece.length;
        if (!req.write(piece)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

describe('request body size', () => {
  it.each([6_500_000, 20_000_000])(
    '%i bytes with a Content-Length: 413 with its true size and the one limit',
    async (size) => {
      const { status, body } = await post(size, false);

      expect(status).toBe(413);
      expect(body.error.code).toBe('payload_too_large');
      expect(body.error.details).toEqual({ limit_bytes: MAX_REQUEST_BODY_BYTES, actual_bytes: size });
      expect(body.error.message).toBe(
        `The request body is ${size} bytes; the limit is ${MAX_REQUEST_BODY_BYTES} bytes.`,
      );
    },
    60_000,
  );

  it('20 MB chunked (no declared length): 413 saying "at least" the bytes read before reading stopped', async () => {
    const { status, body } = await post(20_000_000, true);

    expect(status).toBe(413);
    const details = body.error.details as { limit_bytes: number; actual_bytes: number };
    expect(details.limit_bytes).toBe(MAX_REQUEST_BODY_BYTES);
    expect(details.actual_bytes).toBeGreaterThan(MAX_REQUEST_BODY_BYTES);
    expect(details.actual_bytes).toBeLessThanOrEqual(20_000_000);
    expect(body.error.message).toBe(
      `The request body is at least ${details.actual_bytes} bytes; the limit is ${MAX_REQUEST_BODY_BYTES} bytes.`,
    );
  }, 60_000);

  it('the functions read bodies against the same limit', () => {
    expect(stack.config.http.maxBodyBytes).toBe(MAX_REQUEST_BODY_BYTES);
  });
});
