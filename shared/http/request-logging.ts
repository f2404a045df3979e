/**
 * First in the chain: gives the request its id and state, and last out: stamps X-Request-Id (and the rate-limit
 * headers) on every response, success or error, and writes one access-log line. Headers are never logged.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../observability';
import { header } from './headers';
import { languageOf } from './language';
import type { ApiMiddleware, ApiRequest, RequestState } from './types';

export function requestLogging(options: { logger: Logger; operation: string; now?: () => number }): ApiMiddleware {
  const now = options.now ?? Date.now;

  const requestLoggingBefore = (request: ApiRequest): void => {
    const state: RequestState = {
      requestId: request.event.requestContext?.requestId || randomUUID(),
      startedAt: now(),
      language: languageOf(header(request.event, 'accept-language')),
      operation: options.operation,
    };
    Object.assign(request.internal, state);
    // The handler reads the request's state from its context, the way middy's own middlewares pass values on.
    Object.assign(request.context, { requestState: request.internal });
  };

  const finish = (request: ApiRequest): void => {
    const state = request.internal;
    const response = request.response;
    if (!response) return;
    response.headers = { ...response.headers, 'X-Request-Id': state.requestId };
    if (state.rateLimit) {
      response.headers['X-RateLimit-Limit'] = String(state.rateLimit.limit);
      response.headers['X-RateLimit-Remaining'] = String(state.rateLimit.remaining);
    }
    options.logger.info('request', {
      requestId: state.requestId,
      operation: state.operation,
      method: request.event.requestContext?.http?.method,
      path: request.event.rawPath,
      status: response.statusCode,
      latencyMs: now() - state.startedAt,
      accountId: state.caller?.accountId,
      keyId: state.caller?.keyId,
      points: state.charge?.debit && !state.charge.refunded ? state.charge.points : 0,
      replayed: Boolean(state.idempotency?.replay),
      errorCode: response.statusCode >= 400 ? errorCodeOf(response.body) : undefined,
    });
  };

  return { before: requestLoggingBefore, after: finish, onError: finish };
}

export function errorCodeOf(body: string | undefined): string | undefined {
  try {
    return (JSON.parse(body ?? '') as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
