/**
 * What API Gateway (HTTP API, payload format 2.0) hands a Lambda, built from a local HTTP request, and the
 * Lambda context with a real deadline.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export interface IncomingRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: Uint8Array;
  sourceIp: string;
  routeKey: string;
  /** The route's path parameters, URL-decoded, as API Gateway hands them on. */
  pathParameters?: Record<string, string>;
}

// A byte-order mark stays in the text, as API Gateway passes the body on as sent.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Repeated query parameters and headers are joined with commas, as API Gateway does. Names are the client's:
 * `__proto__` or `constructor` must become ordinary keys, not reach the object's prototype.
 */
function joined(entries: Iterable<[string, string]>, lowerCaseKeys: boolean): Record<string, string> {
  const out = new Map<string, string>();
  for (const [rawKey, value] of entries) {
    const key = lowerCaseKeys ? rawKey.toLowerCase() : rawKey;
    const earlier = out.get(key);
    out.set(key, earlier === undefined ? value : `${earlier},${value}`);
  }
  return Object.fromEntries(out);
}

export function toApiGatewayEvent(request: IncomingRequest): APIGatewayProxyEventV2 {
  const now = new Date();
  const query = joined(request.url.searchParams.entries(), false);
  let body: string | undefined;
  let isBase64Encoded = false;
  if (request.body.length > 0) {
    // Text bodies arrive as text; bytes that are not UTF-8 arrive base64-encoded, as API Gateway sends binary.
    try {
      body = strictUtf8.decode(request.body);
    } catch {
      body = Buffer.from(request.body).toString('base64');
      isBase64Encoded = true;
    }
  }
  const headers = joined(request.headers.entries(), true);
  return {
    version: '2.0',
    routeKey: request.routeKey,
    rawPath: request.url.pathname,
    rawQueryString: request.url.search.replace(/^\?/, ''),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(request.pathParameters ? { pathParameters: request.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: request.url.host,
      domainPrefix: request.url.hostname.split('.')[0] ?? 'localhost',
      http: {
        method: request.method,
        path: request.url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: request.routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded,
  };
}

export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
