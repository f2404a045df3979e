/**
 * Every error code the API documents (functions/openapi/error-catalogue.ts, which the OpenAPI document lists) reaches
 * an SDK caller as a typed error of its family, never as the bare ApiError, with the envelope's code kept.
 */
import { ERROR_CATALOGUE } from '../../../functions/openapi/error-catalogue';
import { ApiError, errorFor, type ErrorFamily } from '../../../sdk/src';

/** The family each documented status belongs to. */
const FAMILY_OF_STATUS: Record<number, ErrorFamily> = {
  400: 'validation',
  401: 'authentication',
  402: 'insufficient_points',
  403: 'permission',
  404: 'not_found',
  405: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'validation',
  422: 'validation',
  429: 'rate_limited',
  431: 'too_large',
  500: 'server',
  502: 'server',
  503: 'server',
  504: 'server',
};

describe('the SDK and the documented error codes', () => {
  it.each(Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => [code, status] as const))(
    '%s (%d) is a typed error of its family',
    (code, status) => {
      const error = errorFor({ status, code, message: 'm', requestId: 'r' });

      expect(error).toBeInstanceOf(ApiError);
      expect(error.constructor).not.toBe(ApiError);
      expect(FAMILY_OF_STATUS[status]).toBeDefined();
      expect(error.family).toBe(code === 'insufficient_points' ? 'insufficient_points' : FAMILY_OF_STATUS[status]);
      expect([error.code, error.status, error.requestId]).toEqual([code, status, 'r']);
    },
  );
});
