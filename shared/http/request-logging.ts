/**
 * First in the chain: gives the request its id and state, and last out: stamps X-Request-Id (and the rate-limit
 * headers) on every response, success or error, and writes one access-log line. Headers, the query string and the
 * body are never logged; the path is, with anything shaped like a key masked (see pathForLog).
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
      path: pathForLog(request.event.rawPath),
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

/**
 * The path as the access log shows it. A client may put its key in the path, in any spelling: the path is
 * percent-decoded first so that the logger's redaction sees `tmk%5Flive%5F...` as the key it is, and any run of 32
 * or more letters and digits (the length of a key's secret part; no route has one) is masked. Cut to 512 characters.
 */
export function pathForLog(rawPath: string | undefined): string | undefined {
  if (rawPath === undefined) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // Not UTF-8 once decoded: decode the ASCII escapes alone, which is all a key can be made of.
    path = rawPath.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  path = path.replace(/[0-9A-Za-z]{32,}/g, '[REDACTED]');
  return path.length > 512 ? `${path.slice(0, 512)}…` : path;
}

export function errorCodeOf(body: string | undefined): string | undefined {
  try {
    return (JSON.parse(body ?? '') as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
