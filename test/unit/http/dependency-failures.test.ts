import { classifyDependencyFailure, isTransientFailure } from '../../../shared/dependency-failures';
import { DebitOutcomeUnknownError } from '../../../shared/errors';

const sdkError = (name: string, status?: number, extra: object = {}) =>
  Object.assign(new Error(name), { name, $metadata: status === undefined ? {} : { httpStatusCode: status }, ...extra });

describe('classifyDependencyFailure', () => {
  it.each([
    ['RequestTimeoutException', sdkError('RequestTimeoutException', 408), 'timeout'],
    ['TimeoutError', sdkError('TimeoutError'), 'timeout'],
    ['AbortError', sdkError('AbortError'), 'timeout'],
    ['ThrottlingException', sdkError('ThrottlingException', 400), 'throttled'],
    ['TooManyRequestsException', sdkError('TooManyRequestsException', 429), 'throttled'],
    ['ProvisionedThroughputExceededException', sdkError('ProvisionedThroughputExceededException', 400), 'throttled'],
    ['any 429', sdkError('SomethingElse', 429), 'throttled'],
    ['$retryable throttling', sdkError('Odd', 400, { $retryable: { throttling: true } }), 'throttled'],
    ['ServiceUnavailableException', sdkError('ServiceUnavailableException', 503), 'unavailable'],
    ['any 5xx', sdkError('ModelError', 502), 'unavailable'],
    ['a refused socket', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'unavailable'],
    ['a socket error wrapped by the SDK', new Error('AWS SDK error wrapper for Error: socket hang up'), 'unavailable'],
    [
      'a cause two levels down',
      new Error('outer', { cause: new Error('mid', { cause: sdkError('ThrottlingException') }) }),
      'throttled',
    ],
    [
      'a debit whose outcome is unknown',
      new DebitOutcomeUnknownError({ accountId: 'a', entryId: 'e', cost: 1 }, new Error('no answer')),
      'unavailable',
    ],
    ['a validation error', sdkError('ValidationException', 400), 'failed'],
    ['a plain bug', new TypeError('x is undefined'), 'failed'],
    ['not an error at all', 'oops', 'failed'],
  ])('%s is %s', (_label, error, kind) => {
    expect(classifyDependencyFailure(error)).toBe(kind);
    expect(isTransientFailure(error)).toBe(kind !== 'failed');
  });

  it('calls any failure a timeout once the caller’s signal has fired', () => {
    const controller = new AbortController();
    controller.abort();
    expect(classifyDependencyFailure(sdkError('ValidationException', 400), controller.signal)).toBe('timeout');
  });
});
