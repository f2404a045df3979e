/** Every request no route matches: 404 `not_found`, or 405 `method_not_allowed` on a known path, in the usual shape. */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { MethodNotAllowedError, NotFoundError } from '../../shared/errors';
import { errorEnvelope } from '../../shared/http/error-envelope';
import { requestLogging } from '../../shared/http/request-logging';
import type { ApiEvent, ApiResult, RequestState } from '../../shared/http/types';
import { createLogger } from '../../shared/observability';
import { allowedMethods } from '../routes';

export async function refuseUnroutedRequest(event: ApiEvent): Promise<ApiResult> {
  const path = event.rawPath ?? '/';
  const allowed = allowedMethods(path);
  if (allowed) throw new MethodNotAllowedError(event.requestContext?.http?.method ?? 'GET', allowed);
  throw new NotFoundError(path);
}

const logger = createLogger('trademark-risk-api');

export const handler = middy<ApiEvent, ApiResult, Error, Context, RequestState>()
  .use([requestLogging({ logger, operation: 'not-found' }), errorEnvelope({ logger })])
  .handler(refuseUnroutedRequest);
