/** The REST API's events (payload format 1.0) read as the format 2.0 the chain reads, through the real handler. */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { handler as notFound } from '../../../functions/not-found/handler';
import { toHttpApiEvent } from '../../../shared/http/gateway-event';

function restEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: '/v1/batch-screen',
    path: '/v1/batch-screen',
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer x' },
    multiValueHeaders: {
      'Content-Type': ['application/json'],
      Authorization: ['Bearer x'],
      'Accept-Language': ['zh', 'en'],
    },
    queryStringParameters: { country: 'CN' },
    multiValueQueryStringParameters: { country: ['CN'], nice: ['9', '25'] },
    pathParameters: null,
    stageVariables: null,
    body: '{"items":[]}',
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: 'POST',
      identity: { sourceIp: '203.0.113.9', userAgent: 'curl/8' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: '/api/v1/batch-screen',
      stage: 'api',
      requestId: 'gw-request-1',
      requestTimeEpoch: 1_760_000_000_000,
      resourceId: 'r1',
      resourcePath: '/v1/batch-screen',
    },
    ...overrides,
  };
}

describe('toHttpApiEvent', () => {
  it('lower-cases header names and joins repeated values and query parameters with commas, as format 2.0 does', () => {
    const event = toHttpApiEvent(restEvent());

    expect(event.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer x',
      'accept-language': 'zh,en',
    });
    expect(event.queryStringParameters).toEqual({ country: 'CN', nice: '9,25' });
    expect(event).toMatchObject({
      version: '2.0',
      rawPath: '/v1/batch-screen',
      body: '{"items":[]}',
      isBase64Encoded: false,
      routeKey: 'POST /v1/batch-screen',
    });
    expect(event.requestContext).toMatchObject({
      requestId: 'gw-request-1',
      stage: 'api',
      http: { method: 'POST', path: '/v1/batch-screen', sourceIp: '203.0.113.9', userAgent: 'curl/8' },
    });
  });

  it('leaves a format 2.0 event as it is', () => {
    const v2 = toHttpApiEvent(restEvent());
    expect(toHttpApiEvent(v2)).toBe(v2);
  });

  it('the not-found function answers a REST event with the gateway request id and the method it came with', async () => {
    const result = await notFound(restEvent({ httpMethod: 'GET', body: null }), {} as Context);

    expect(result.statusCode).toBe(405);
    expect(result.headers['X-Request-Id']).toBe('gw-request-1');
    expect(JSON.parse(result.body).error).toMatchObject({ code: 'method_not_allowed', request_id: 'gw-request-1' });
  });
});
