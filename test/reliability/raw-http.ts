/**
 * One HTTP request exactly as given: any method token, a request target that no URL parser has normalised, raw
 * header values and raw body bytes. `fetch` cannot send most of what the hostile-input suites need (dot segments,
 * odd methods, bodies on GET, invalid UTF-8 with a JSON content type), so they go through node:http directly.
 */
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent as the request target, untouched. */
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  /** 0 when the server closed the connection without an answer. */
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: any body the server may answer, read by path in jest assertions that check its shape
  json: any;
  error?: string;
}

export function sendRaw(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port;
  const body =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, 'utf8');
  return new Promise((resolve) => {
    const outgoing = http.request({
      hostname,
      port,
      method: request.method,
      path: request.target,
      headers: { ...(body ? { 'Content-Length': String(body.length) } : {}), ...request.headers },
      agent: false,
      // Header values are sent as given (node still refuses CR, LF and NUL, which no client can send either).
      insecureHTTPParser: true,
    });
    // A CONNECT is answered through 'connect', with the socket handed over; only the status line matters here.
    outgoing.on('connect', (response: http.IncomingMessage, socket: import('node:net').Socket, head: Buffer) => {
      socket.destroy();
      const text = head.toString('utf8');
      resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: jsonOrUndefined(text) });
    });
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: jsonOrUndefined(text) });
      });
      response.on('error', (error) =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: '',
          json: undefined,
          error: error.message,
        }),
      );
    });
    outgoing.on('error', (error) =>
      resolve({
        status: 0,
        headers: {},
        text: '',
        json: undefined,
        error: (error as NodeJS.ErrnoException).code ?? error.message,
      }),
    );
    outgoing.end(body);
  });
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
