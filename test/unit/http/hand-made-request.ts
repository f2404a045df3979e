/**
 * A middy request built by hand, so that one middleware's before/onError can be called on its own, without the
 * rest of the chain. Only the fields the middlewares read are filled in.
 */
import type { Context } from 'aws-lambda';
import type { ApiEvent, ApiRequest, RequestState } from '../../../shared/http/types';

export interface HandMadeEvent {
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  queryStringParameters?: Record<string, string>;
}

export function handMadeRequest(
  options: { event?: HandMadeEvent; internal?: Partial<RequestState>; error?: unknown } = {},
): ApiRequest {
  const event = {
    version: '2.0',
    routeKey: 'POST /v1/test',
    rawPath: '/v1/test',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { requestId: 'req-fixed-1', http: { method: 'POST', path: '/v1/test' } },
    ...options.event,
  } as unknown as ApiEvent;
  return {
    event,
    context: {} as Context,
    response: null,
    error: (options.error ?? null) as Error | null,
    internal: { requestId: 'req-fixed-1', startedAt: 0, language: 'en', operation: 'test', ...options.internal },
  };
}

/** Runs a synchronous-or-async middleware step and returns what it threw (or undefined). */
export async function thrownBy(step: () => unknown): Promise<unknown> {
  try {
    await step();
    return undefined;
  } catch (error) {
    return error;
  }
}
