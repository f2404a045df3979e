/** The shapes shared by the HTTP chain: an operation's definition, the per-request state, the dependencies. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { MiddlewareObj, MiddyfiedHandler, Request } from '@middy/core';
import type * as z from 'zod';
import type { HttpConfig } from '../config';
import type { Tier } from '../metering/tiers';
import type { AccountStore, Debit, IdempotencyStore, RateLimiter, UsageLedger } from '../ports';
import type { Logger, Metrics } from '../observability';
import type { Tracer } from '../tracing';
import type { Language } from './language';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

/** A metered operation: what it accepts, what it costs, who may call it, and the work itself. */
export interface Operation<Input, Output> {
  /** Used in metrics, logs and usage records, e.g. `batch-screen`. */
  name: string;
  /** POST unless given. A GET or DELETE reads no body: its input comes from the path and query string alone. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** 200 unless given; 201 for an operation that creates a resource (feedback). */
  successStatus?: 200 | 201;
  minTier: Tier;
  schema: z.ZodType<Input>;
  /** Scalar fields that may also come as query parameters, with how to read them from the query string. */
  queryFields?: Record<string, 'string' | 'integer' | 'number'>;
  /** The route's path parameters (`/v1/watch/{id}`: `id`), taken into the input as strings, URL-decoded. */
  pathFields?: readonly string[];
  /** Refusals with a code of their own (too_many_items, country_not_supported), run on the raw input before the schema. */
  precheck?(raw: Record<string, unknown>): void;
  /** Refusals that need the parsed input (an image url's shape), run after the schema and before any charge. */
  validate?(input: Input): void;
  /** Absent for a free operation (account, usage, allowlist): it runs the same chain without a debit. */
  cost?(input: Input): { points: number; units: number };
  run(input: Input, context: OperationContext): Promise<Output>;
}

export interface OperationContext {
  requestId: string;
  accountId: string;
  tier: Tier;
  /** The key that made the call: its id and display prefix. */
  keyId: string;
  keyPrefix: string;
  /** The caller's request allowance in the current window, as the rate limit counted it. */
  rateLimit?: { limit: number; remaining: number };
  /** Aborted when the function is about to run out of time. */
  signal?: AbortSignal;
  /** Outcomes worth a metric of their own (e.g. `Degraded`): each is counted once for this request. */
  outcomes: Set<string>;
}

export interface Caller {
  accountId: string;
  keyId: string;
  keyPrefix: string;
  tier: Tier;
  rateLimit?: number;
}

/** Everything one request accumulates on its way through the chain (middy's `request.internal`). */
// A type literal, not an interface: middy wants `internal` to be a Record<string, unknown>.
export type RequestState = {
  requestId: string;
  startedAt: number;
  language: Language;
  operation: string;
  body?: Record<string, unknown>;
  /** The body with the declared query parameters merged in, before validation. */
  rawInput?: Record<string, unknown>;
  /** The validated input the operation runs on. */
  input?: unknown;
  caller?: Caller;
  rateLimit?: { limit: number; remaining: number };
  idempotency?: { id: string; replay?: ApiResult; owned: boolean };
  charge?: { points: number; units: number; debit?: Debit; refunded?: boolean };
  /** See OperationContext.outcomes. */
  outcomes?: Set<string>;
};

export interface ApiDependencies {
  http: HttpConfig;
  accounts: AccountStore;
  ledger: UsageLedger;
  idempotency: IdempotencyStore;
  rateLimiter: RateLimiter;
  logger: Logger;
  metrics: Metrics;
  /** X-Ray, in Lambda; absent in tests that build their own dependencies. */
  tracer?: Tracer;
  now: () => Date;
}

/** middy's request and middleware, with our per-request state typed as `internal`. */
export type ApiRequest = Request<ApiEvent, ApiResult, Error, Context, RequestState>;
export type ApiMiddleware = MiddlewareObj<ApiEvent, ApiResult, Error, Context, RequestState>;
export type ApiHandler = MiddyfiedHandler<ApiEvent, ApiResult, Error, Context, RequestState>;
