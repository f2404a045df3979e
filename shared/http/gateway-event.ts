/**
 * The handlers read API Gateway's payload format 2.0 (the HTTP API's, and the local server's). The deployed REST
 * API hands Lambda format 1.0; this turns one into the other at the handler's entry, so that the chain reads one
 * shape wherever it runs:
 *   headers (names lower-cased, repeated values joined with commas, as format 2.0 does), query parameters (the
 *   same), the body and its base64 flag as they are, the request id (the one the gateway's own error responses
 *   carry), the method, the path (without the stage), the source address and user agent, and the path parameters
 *   (the REST API hands them on percent-encoded as the client sent them; format 2.0 and the handlers read them
 *   decoded).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';

function isFormat2(event: APIGatewayProxyEvent | APIGatewayProxyEventV2): event is APIGatewayProxyEventV2 {
  return (event as APIGatewayProxyEventV2).version === '2.0';
}

function joined(
  single: Record<string, string | undefined> | null,
  multi: Record<string, string[] | undefined> | null,
  lowerCase: boolean,
): Record<string, string> {
  const out = new Map<string, string>();
  const put = (rawKey: string, value: string) => {
    const key = lowerCase ? rawKey.toLowerCase() : rawKey;
    const earlier = out.get(key);
    out.set(key, earlier === undefined ? value : `${earlier},${value}`);
  };
  if (multi) {
    for (const [key, values] of Object.entries(multi)) for (const value of values ?? []) put(key, value);
  } else if (single) {
    for (const [key, value] of Object.entries(single)) if (value !== undefined) put(key, value);
  }
  return Object.fromEntries(out);
}

function decodedParameters(parameters: Record<string, string | undefined> | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters ?? {})) {
    if (value === undefined) continue;
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

export function toHttpApiEvent(event: APIGatewayProxyEvent | APIGatewayProxyEventV2): APIGatewayProxyEventV2 {
  if (isFormat2(event)) return event;
  const headers = joined(event.headers, event.multiValueHeaders, true);
  const query = joined(event.queryStringParameters, event.multiValueQueryStringParameters, false);
  const context = event.requestContext;
  const routeKey = `${event.httpMethod} ${event.resource}`;
  const pathParameters = decodedParameters(event.pathParameters);
  return {
    version: '2.0',
    routeKey,
    rawPath: event.path,
    rawQueryString: new URLSearchParams(Object.entries(query)).toString(),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: context.accountId,
      apiId: context.apiId,
      domainName: context.domainName ?? '',
      domainPrefix: context.domainPrefix ?? '',
      http: {
        method: event.httpMethod,
        path: event.path,
        protocol: context.protocol,
        sourceIp: context.identity?.sourceIp ?? '',
        userAgent: context.identity?.userAgent ?? '',
      },
      requestId: context.requestId,
      routeKey,
      stage: context.stage,
      time: context.requestTime ?? new Date(context.requestTimeEpoch).toISOString(),
      timeEpoch: context.requestTimeEpoch,
    },
    ...(event.body !== null && event.body !== undefined ? { body: event.body } : {}),
    isBase64Encoded: event.isBase64Encoded,
  };
}
