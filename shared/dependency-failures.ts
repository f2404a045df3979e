/**
 * The one reading of a failed call to a dependency (a table, a bucket, a vector index, an endpoint): was it a
 * timeout, a throttle, an outage, or a fault that another try would not mend? Duck-typed on the AWS SDK's error
 * shape (`name`, `$metadata`, `$retryable`) and Node's socket codes, never `instanceof`: errors raised by Node's
 * sockets may come from another realm than ours, and the domain imports no SDK.
 */
import { DebitContendedError, DebitOutcomeUnknownError } from './errors';

export type DependencyFailure = 'timeout' | 'throttled' | 'unavailable' | 'failed';

const TIMEOUT_NAMES = new Set(['AbortError', 'TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const THROTTLE_NAMES = new Set([
  'ThrottlingException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
]);
const UNAVAILABLE_NAMES = new Set([
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TransactionInProgressException',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** The SDK wraps what it cannot read as an Error (a socket error from another realm) into this message. */
const SDK_WRAPPED_NETWORK_ERROR =
  /^AWS SDK error wrapper for .*(socket hang up|TimeoutError|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE)/;

interface ErrorShape {
  name?: string;
  code?: string;
  message?: string;
  cause?: unknown;
  $retryable?: { throttling?: boolean };
  $metadata?: { httpStatusCode?: number };
}

/** What kind of failure `error` is (its causes are read too); `signal` aborted means the caller's time ran out. */
export function classifyDependencyFailure(error: unknown, signal?: AbortSignal): DependencyFailure {
  if (signal?.aborted) return 'timeout';
  for (
    let e: unknown = error, depth = 0;
    typeof e === 'object' && e !== null && depth < 4;
    e = (e as ErrorShape).cause, depth++
  ) {
    const kind = kindOf(e as ErrorShape);
    if (kind !== 'failed') return kind;
    if (e instanceof DebitOutcomeUnknownError || e instanceof DebitContendedError) return 'unavailable';
  }
  return 'failed';
}

/**
 * Whether an error means a dependency could not be reached or was overloaded, rather than a fault in the request or
 * the code: such a request is answered 503 and may be retried.
 */
export function isTransientFailure(error: unknown): boolean {
  return classifyDependencyFailure(error) !== 'failed';
}

function kindOf(e: ErrorShape): DependencyFailure {
  const status = e.$metadata?.httpStatusCode;
  if (e.name && TIMEOUT_NAMES.has(e.name)) return 'timeout';
  if ((e.name && THROTTLE_NAMES.has(e.name)) || status === 429 || e.$retryable?.throttling === true) return 'throttled';
  if ((e.name && UNAVAILABLE_NAMES.has(e.name)) || e.$retryable || (status !== undefined && status >= 500))
    return 'unavailable';
  if (
    (e.code && NETWORK_CODES.has(e.code)) ||
    (typeof e.message === 'string' && SDK_WRAPPED_NETWORK_ERROR.test(e.message))
  ) {
    return 'unavailable';
  }
  return 'failed';
}
