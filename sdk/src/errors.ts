/** The API's error envelope as typed errors: one class per code family, each with the envelope's fields. */

export type ErrorFamily =
  | 'authentication'
  | 'permission'
  | 'insufficient_points'
  | 'validation'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'other';

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string;
  details?: unknown;
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: unknown;
  readonly retryAfterSeconds: number | undefined;
  readonly family: ErrorFamily = 'other';

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

export class AuthenticationError extends ApiError {
  override readonly family = 'authentication';
  override readonly name = 'AuthenticationError';
}
export class PermissionError extends ApiError {
  override readonly family = 'permission';
  override readonly name = 'PermissionError';
}
export class InsufficientPointsError extends ApiError {
  override readonly family = 'insufficient_points';
  override readonly name = 'InsufficientPointsError';
}
export class ValidationError extends ApiError {
  override readonly family = 'validation';
  override readonly name = 'ValidationError';
}
export class NotFoundError extends ApiError {
  override readonly family = 'not_found';
  override readonly name = 'NotFoundError';
}
export class ConflictError extends ApiError {
  override readonly family = 'conflict';
  override readonly name = 'ConflictError';
}
export class PayloadTooLargeError extends ApiError {
  override readonly family = 'too_large';
  override readonly name = 'PayloadTooLargeError';
}
export class RateLimitedError extends ApiError {
  override readonly family = 'rate_limited';
  override readonly name = 'RateLimitedError';
}
export class ServerError extends ApiError {
  override readonly family = 'server';
  override readonly name = 'ServerError';
}
/** No HTTP answer at all (status 0): the connection failed. */
export class NetworkError extends ApiError {
  override readonly family = 'network';
  override readonly name = 'NetworkError';
}
/** The timeout option ran out (status 0). An AbortSignal of the caller's own rejects with its reason instead. */
export class TimeoutError extends ApiError {
  override readonly family = 'timeout';
  override readonly name = 'TimeoutError';
}

/** The error class for an envelope's code and status. */
export function errorFor(init: ApiErrorInit): ApiError {
  const { code, status } = init;
  if (code === 'insufficient_points' || status === 402) return new InsufficientPointsError(init);
  if (code === 'rate_limited' || status === 429) return new RateLimitedError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionError(init);
  if (status === 404 || status === 405) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 413 || status === 431) return new PayloadTooLargeError(init);
  if (status === 400 || status === 415 || status === 422) return new ValidationError(init);
  if (status >= 500) return new ServerError(init);
  return new ApiError(init);
}
