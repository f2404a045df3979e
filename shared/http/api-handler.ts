/**
 * Builds the Lambda handler of a metered operation. The order of the chain is all here:
 *   tracing (X-Ray, in Lambda), request id + access log, metrics, error envelope, API key, rate limit, tier, JSON body,
 *   query merge, validation, Idempotency-Key, points debit, then the operation itself
 * (DESIGN.md's order: authenticate -> tier -> validate; the body is not read before the caller is known).
 * A GET or DELETE reads no body and takes no Idempotency-Key (a DELETE is idempotent by itself); a free operation
 * (no `cost`) has no debit. Path parameters (`pathFields`) join the input with the query parameters.
 * middy runs `after` and `onError` in reverse, so the debit refunds before the envelope answers, and the access
 * log sees the final response.
 */
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { WorkAbortedError } from '../errors';
import { toHttpApiEvent } from './gateway-event';
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

export function buildApiHandler<Input, Output>(operation: Operation<Input, Output>, deps: ApiDependencies): ApiHandler {
  const readsBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  const chain: ApiMiddleware[] = [
    requestLogging({ logger: deps.logger, operation: operation.name }),
    requestMetrics({ metrics: deps.metrics }),
    errorEnvelope({ logger: deps.logger }),
    // Who is calling, before anything of the body is read: an unauthenticated flood costs one key lookup each.
    authenticate({ accounts: deps.accounts, now: deps.now }),
    rateLimit({
      rateLimiter: deps.rateLimiter,
      defaultLimit: deps.http.rateLimit.requests,
      windowSeconds: deps.http.rateLimit.windowSeconds,
      now: deps.now,
    }),
    requireTier(operation.minTier),
    ...(readsBody ? [jsonBody({ maxBodyBytes: deps.http.maxBodyBytes })] : []),
    queryMerge({ fields: operation.queryFields ?? {}, pathFields: operation.pathFields ?? [] }),
    validateInput(operation),
    ...(readsBody ? [idempotency({ store: deps.idempotency, now: deps.now, logger: deps.logger })] : []),
    ...(operation.cost
      ? [
          debitPoints({
            operation: { name: operation.name, cost: operation.cost },
            ledger: deps.ledger,
            accounts: deps.accounts,
            logger: deps.logger,
            now: deps.now,
            deadlineMarginMs: deps.http.deadlineMarginMs,
          }),
        ]
      : []),
  ];

  const runOperation = async (_event: ApiEvent, context: Context): Promise<ApiResult> => {
    const state = (context as Context & { requestState: RequestState }).requestState;
    if (state.idempotency?.replay) return state.idempotency.replay;
    state.outcomes = new Set();
    // The work's own signal, aborted at the same moment as middy's timeout: middy's signal is shared by every
    // request of the process, and one request's deadline must not stop another's work (the local server runs many).
    const deadline = abortAtDeadline(context, deps.http.deadlineMarginMs);
    try {
      const output = await operation.run(state.input as Input, {
        requestId: state.requestId,
        accountId: state.caller!.accountId,
        tier: state.caller!.tier,
        keyId: state.caller!.keyId,
        keyPrefix: state.caller!.keyPrefix,
        ...(state.rateLimit ? { rateLimit: state.rateLimit } : {}),
        signal: deadline.signal,
        outcomes: state.outcomes,
      });
      return jsonResponse(operation.successStatus ?? 200, output);
    } catch (error) {
      // Whatever the work threw once its deadline had passed, the deadline is why: 503 after the refund.
      if (deadline.signal.aborted) throw new WorkAbortedError(operation.name);
      throw error;
    } finally {
      deadline.clear();
    }
  };

  const tracing: ApiMiddleware[] = deps.tracer
    ? [captureLambdaHandler(deps.tracer, { captureResponse: false }) as ApiMiddleware]
    : [];
  // At the margin before the function's deadline (http.deadlineMarginMs), middy aborts the work's signal and the
  // chain answers: the debit refunds, the envelope says 503. The work must yield for that timer to fire: it does.
  return middy<ApiEvent, ApiResult, Error, Context, RequestState>({ timeoutEarlyInMillis: deps.http.deadlineMarginMs })
    .use([...tracing, ...chain])
    .handler(runOperation);
}

function abortAtDeadline(context: Context, marginMs: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const remaining =
    typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : undefined;
  const timer =
    remaining === undefined ? undefined : setTimeout(() => controller.abort(), Math.max(0, remaining - marginMs));
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * Defers building until the first invocation, so importing a handler module never reads config by itself. Takes
 * the REST API's events (format 1.0) as well as format 2.0 (shared/http/gateway-event.ts).
 */
export function lazyHandler(
  build: () => ApiHandler,
): (event: ApiEvent | APIGatewayProxyEvent, context: Context) => Promise<ApiResult> {
  let built: ApiHandler | undefined;
  return (event, context) => {
    built ??= build();
    return built(toHttpApiEvent(event), context);
  };
}
