/**
 * Turns any error into the one documented shape:
 *   {"error": {"code", "message", "request_id", "details"?}}
 * The status comes from the error's class. A dependency that could not be reached or ran out of time is a 503
 * (safe to retry: nothing was charged). Anything else is a 500 with a generic message that says whether the
 * charge stands; its stack goes to the log, never to the client.
 */
import { isTransientFailure } from '../dependency-failures';
import { ServiceError, ServiceUnavailableError, WorkAbortedError } from '../errors';
import type { Logger } from '../observability';
import { jsonResponse } from './headers';
import { pick } from './language';
import type { ApiMiddleware, ApiRequest } from './types';

/** middy raises TimeoutError when the function is about to run out of time; work that saw its signal, WorkAbortedError. */
function isTimeout(error: unknown): boolean {
  return error instanceof WorkAbortedError || (error instanceof Error && error.name === 'TimeoutError');
}

export function errorEnvelope(options: { logger: Logger }): ApiMiddleware {
  const errorEnvelopeOnError = (request: ApiRequest): void => {
    const { requestId, language } = request.internal;
    let error = request.error;
    const chargeStands = Boolean(request.internal.charge?.debit && !request.internal.charge.refunded);
    if ((isTimeout(error) || isTransientFailure(error)) && !chargeStands) {
      if (!isTimeout(error)) options.logger.warn('dependency unavailable', { requestId, error: error as Error });
      error = new ServiceUnavailableError(language === 'zh' ? '服务' : 'The service');
    }
    if (error instanceof ServiceError) {
      if (error.status >= 500)
        options.logger.warn('service error', { requestId, code: error.code, error: error.message });
      const envelope = { code: error.code, message: pick(error.messages, language ?? 'en'), request_id: requestId };
      try {
        request.response = jsonResponse(
          error.status,
          { error: { ...envelope, ...(error.details ? { details: error.details } : {}) } },
          error.headers,
        );
      } catch {
        // Details that cannot be serialised (client input no error should have kept) must not make a 400 a 500.
        request.response = jsonResponse(error.status, { error: envelope }, error.headers);
      }
      return;
    }
    options.logger.error('unhandled error', { requestId, error: error as Error });
    request.response = jsonResponse(500, {
      error: {
        code: 'internal_error',
        message:
          language === 'zh'
            ? `服务内部错误${chargeStands ? '，本次扣点将人工退回' : '，未扣除点数'}。如需协助请提供请求编号 ${requestId}。`
            : `Something went wrong on our side; ${chargeStands ? 'the charge will be refunded by hand' : 'no points were charged'}. Quote request id ${requestId} if you contact support.`,
        request_id: requestId,
      },
    });
  };

  return { onError: errorEnvelopeOnError };
}
