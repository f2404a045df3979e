/**
 * Builds the Lambda handler of a metered operation. The order of the chain is all here:
 *   request id + access log, metrics, error envelope, JSON body, API key, rate limit, tier,
 *   query merge, validation, Idempotency-Key, points debit, then the operation itself.
 * A GET reads no body and takes no Idempotency-Key; a free operation (no `cost`) has no debit.
 * middy runs `after` and `onError` in reverse, so the debit refunds before the envelope answers, and the access
 * log sees the final response.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { authenticate } from './authenticate';
import { debitPoints } from './debit-points';
import { errorEnvelope } from './error-envelope';
import { jsonResponse } from './headers';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';
import { queryMerge } from './query-merge';
import { rateLimit } from './rate-limit';
import { requestLogging } from './request-logging';
import { requestMetrics } from './request-metrics';
import { requireTier } from './require-tier';
import type { ApiDependencies, ApiEvent, ApiHandler, ApiMiddleware, ApiResult, Operation, RequestState } from './types';
import { validateInput } from './validate-input';

/** Time kept back from the function's timeout so that a refund can still be written when the work overruns. */
const REFUND_RESERVE_MS = 1500;

export function buildApiHandler<Input, Output>(operation: Operation<Input, Output>, deps: ApiDependencies): ApiHandler {
  const chain: ApiMiddleware[] = [
    requestLogging({ logger: deps.logger, operation: operation.name }),
    requestMetrics({ metrics: deps.metrics }),
    errorEnvelope({ logger: deps.logger }),
    ...(operation.method === 'GET' ? [] : [jsonBody({ maxBodyBytes: deps.http.maxBodyBytes })]),
    authenticate({ accounts: deps.accounts, now: deps.now }),
    rateLimit({ rateLimiter: deps.rateLimiter, defaultLimit: deps.http.rateLimit.requests, windowSeconds: deps.http.rateLimit.windowSeconds, now: deps.now }),
    requireTier(operation.minTier),
    queryMerge({ fields: operation.queryFields ?? {} }),
    validateInput(operation),
    ...(operation.method === 'GET' ? [] : [idempotency({ store: deps.idempotency, now: deps.now, logger: deps.logger })]),
    ...(operation.cost ? [debitPoints({ operation: { name: operation.name, cost: operation.cost }, ledger: deps.ledger, accounts: deps.accounts, logger: deps.logger, now: deps.now })] : []),
  ];

  const runOperation = async (_event: ApiEvent, context: Context, options?: { signal?: AbortSignal }): Promise<ApiResult> => {
    const state = (context as Context & { requestState: RequestState }).requestState;
    if (state.idempotency?.replay) return state.idempotency.replay;
    state.outcomes = new Set();
    const output = await operation.run(state.input as Input, {
      requestId: state.requestId,
      accountId: state.caller!.accountId,
      tier: state.caller!.tier,
      keyId: state.caller!.keyId,
      keyPrefix: state.caller!.keyPrefix,
      ...(state.rateLimit ? { rateLimit: state.rateLimit } : {}),
      signal: options?.signal,
      outcomes: state.outcomes,
    });
    return jsonResponse(200, output);
  };

  return middy<ApiEvent, ApiResult, Error, Context, RequestState>({ timeoutEarlyInMillis: REFUND_RESERVE_MS })
    .use(chain)
    .handler(runOperation);
}

/** Defers building until the first invocation, so importing a handler module never reads config by itself. */
export function lazyHandler(build: () => ApiHandler): (event: ApiEvent, context: Context) => Promise<ApiResult> {
  let built: ApiHandler | undefined;
  return (event, context) => {
    built ??= build();
    return built(event, context);
  };
}
