/** GET /v1/openapi.json: the OpenAPI 3.1 document, built from the request schemas once per instance. No key. */
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { errorEnvelope } from '../../shared/http/error-envelope';
import { jsonResponse } from '../../shared/http/headers';
import { requestLogging } from '../../shared/http/request-logging';
import type { ApiEvent, ApiResult } from '../../shared/http/types';
import { createLogger } from '../../shared/observability';
import { buildOpenApiDocument } from './document';

let document: string | undefined;

export async function serveOpenApi(): Promise<ApiResult> {
  document ??= JSON.stringify(buildOpenApiDocument());
  const response = jsonResponse(200, null, {
    'Cache-Control': 'public, max-age=300',
    'Access-Control-Allow-Origin': '*',
  });
  return { ...response, body: document };
}

const logger = createLogger('trademark-risk-api');

export const handler = middy<ApiEvent, ApiResult, Error, Context>()
  .use([requestLogging({ logger, operation: 'openapi' }), errorEnvelope({ logger })] as unknown as MiddlewareObj<
    ApiEvent,
    ApiResult,
    Error,
    Context
  >[])
  .handler(serveOpenApi);
