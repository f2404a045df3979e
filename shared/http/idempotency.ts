/**
 * `Idempotency-Key`: the first request with a key does the work and its response is stored for 24 hours; a retry
 * with the same key and the same request gets that response again, byte for byte, without a second charge. The same
 * key with a different request is a 422; a duplicate that arrives while the first is still running is a 409.
 * Keys are scoped to the account. A request that fails frees its key, so the client can retry with it.
 */
import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../errors';
import type { Logger } from '../observability';
import type { IdempotencyStore } from '../ports';
import { header } from './headers';
import type { ApiMiddleware, ApiRequest, ApiResult } from './types';

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** JSON with object keys sorted, so that key order and whitespace do not make two equal requests differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function idempotency(options: { store: IdempotencyStore; now: () => Date; logger: Logger }): ApiMiddleware {
  const idempotencyBefore = async (request: ApiRequest): Promise<void> => {
    const key = header(request.event, 'idempotency-key');
    if (key === undefined) return;
    if (!KEY_SHAPE.test(key)) {
      throw new InvalidRequestError([
        { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters, e.g. a UUID' },
      ]);
    }
    const state = request.internal;
    const id = `${state.caller!.accountId}#${key}`;
    const fingerprint = createHash('sha256')
      .update(`${state.operation}\n${canonicalJson(state.input)}`)
      .digest('hex');
    const outcome = await options.store.begin({ id, fingerprint, requestId: state.requestId, now: options.now() });
    state.idempotency =
      outcome.kind === 'replay'
        ? {
            id,
            owned: false,
            replay: {
              ...outcome.response,
              headers: { ...outcome.response.headers, 'Idempotent-Replayed': 'true' },
            } as ApiResult,
          }
        : { id, owned: true };
  };

  const idempotencyAfter = async (request: ApiRequest): Promise<void> => {
    const state = request.internal;
    if (!state.idempotency?.owned || !request.response) return;
    const { statusCode, headers, body } = request.response;
    try {
      await options.store.complete({
        id: state.idempotency.id,
        requestId: state.requestId,
        response: { statusCode, headers, body },
        now: options.now(),
      });
    } catch (error) {
      // The work is done and charged: failing the response now would only invite a retry that charges again.
      // The key stays locked until its lock expires; after that a retry runs anew.
      options.logger.warn('idempotency record not completed', { requestId: state.requestId, error: error as Error });
    }
  };

  const idempotencyOnError = async (request: ApiRequest): Promise<void> => {
    const state = request.internal;
    if (!state.idempotency?.owned) return;
    await options.store.release({ id: state.idempotency.id, requestId: state.requestId }).catch(() => undefined);
  };

  return { before: idempotencyBefore, after: idempotencyAfter, onError: idempotencyOnError };
}
