/** Every request no route matches: 404 `not_found`, or 405 `method_not_allowed` on a known path, in the usual shape. */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { toHttpApiEvent } from '../../shared/http/gateway-event';
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

const chain = middy<ApiEvent, ApiResult, Error, Context, RequestState>()
  .use([requestLogging({ logger, operation: 'not-found' }), errorEnvelope({ logger })])
  .handler(refuseUnroutedRequest);

/** Takes the REST API's events (format 1.0) as well as format 2.0. */
export const handler = (event: ApiEvent | APIGatewayProxyEvent, context: Context): Promise<ApiResult> =>
  chain(toHttpApiEvent(event), context);
