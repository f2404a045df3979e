import {
  IdempotencyKeyReusedError,
  InsufficientPointsError,
  InvalidRequestError,
  MissingApiKeyError,
  RateLimitedError,
  ServiceUnavailableError,
} from '../../../shared/errors';
import { errorEnvelope } from '../../../shared/http/error-envelope';
import type { Language } from '../../../shared/http/language';
import { createLogger } from '../../../shared/observability';
import { handMadeRequest } from './hand-made-request';

const CJK = /[\u4e00-\u9fff]/;

async function envelopeFor(error: unknown, options: { language?: Language; charged?: boolean } = {}) {
  const request = handMadeRequest({
    error,
    internal: {
      requestId: 'req-abc-123',
      language: options.language ?? 'en',
      ...(options.charged
        ? { charge: { points: 5, units: 1, debit: { accountId: 'acct_1', entryId: 'e1', cost: 5 } } }
        : {}),
    },
  });
  await errorEnvelope({ logger: createLogger('test') }).onError!(request);
  const response = request.response!;
  return { response, body: JSON.parse(response.body) as { error: Record<string, unknown> } };
}

describe('error envelope for a ServiceError', () => {
  it('answers with the class status, code, English message and request id', async () => {
    const { response, body } = await envelopeFor(new InsufficientPointsError(3, 5));

    expect(response.statusCode).toBe(402);
    expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(body).toEqual({
      error: {
        code: 'insufficient_points',
        message: 'This request costs 5 points and the balance is 3. Top up, or send fewer items.',
        request_id: 'req-abc-123',
        details: { balance: 3, cost: 5 },
      },
    });
  });

  it('answers in Chinese for zh', async () => {
    const { body } = await envelopeFor(new InsufficientPointsError(3, 5), { language: 'zh' });

    expect(body.error.message).toBe('本次请求需要 5 点，当前余额 3 点。请充值或减少条目数。');
    expect(body.error.code).toBe('insufficient_points');
  });

  it('leaves details out when the error has none', async () => {
    const { response, body } = await envelopeFor(new IdempotencyKeyReusedError());

    expect(response.statusCode).toBe(422);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id']);
  });

  it("carries the error's own headers", async () => {
    const limited = await envelopeFor(new RateLimitedError(3, 60, 17));
    const missing = await envelopeFor(new MissingApiKeyError());

    expect(limited.response.statusCode).toBe(429);
    expect(limited.response.headers['Retry-After']).toBe('17');
    expect(missing.response.statusCode).toBe(401);
    expect(missing.response.headers['WWW-Authenticate']).toBe('Bearer');
  });

  it('keeps field issues in details', async () => {
    const { body } = await envelopeFor(
      new InvalidRequestError([{ field: 'items[3].title', message: 'must be a string' }]),
    );

    expect(body.error.details).toEqual({ issues: [{ field: 'items[3].title', message: 'must be a string' }] });
  });

  it('a 503 ServiceError keeps its own code and message', async () => {
    const { response, body } = await envelopeFor(new ServiceUnavailableError('Image search'));

    expect(response.statusCode).toBe(503);
    expect(body.error.code).toBe('service_unavailable');
    expect(body.error.message).toBe(
      'Image search is unavailable right now; no points were charged. Retry in a few seconds.',
    );
  });
});

describe('error envelope for anything else', () => {
  const secret = new Error('connect ECONNREFUSED 10.0.3.7:5432 password=hunter2');

  it('is a 500 internal_error with a generic message and no stack or inner message', async () => {
    const { response, body } = await envelopeFor(secret);

    expect(response.statusCode).toBe(500);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id']);
    expect(body.error.code).toBe('internal_error');
    expect(body.error.request_id).toBe('req-abc-123');
    expect(body.error.message).toBe(
      'Something went wrong on our side; no points were charged. Quote request id req-abc-123 if you contact support.',
    );
    expect(response.body).not.toMatch(/hunter2|ECONNREFUSED|10\.0\.3\.7|stack|\.ts:\d+|at /);
  });

  it('says so when a charge stands (the refund did not go through)', async () => {
    const { body } = await envelopeFor(secret, { charged: true });

    expect(body.error.message).toBe(
      'Something went wrong on our side; the charge will be refunded by hand. Quote request id req-abc-123 if you contact support.',
    );
  });

  it('is in Chinese for zh, with the request id', async () => {
    const { body } = await envelopeFor(secret, { language: 'zh' });

    expect(body.error.message).toBe('服务内部错误，未扣除点数。如需协助请提供请求编号 req-abc-123。');
    expect(body.error.message).toMatch(CJK);
  });

  it('covers things thrown that are not even Errors', async () => {
    const { response, body } = await envelopeFor('a bare string');

    expect(response.statusCode).toBe(500);
    expect(body.error.code).toBe('internal_error');
    expect(response.body).not.toContain('a bare string');
  });

  it("a ServiceError's look-alike is not trusted: only the class decides", async () => {
    const lookAlike = Object.assign(new Error('I claim to be a 400'), {
      status: 400,
      code: 'invalid_request',
      messages: { en: 'x', zh: 'x' },
    });

    const { response, body } = await envelopeFor(lookAlike);

    expect(response.statusCode).toBe(500);
    expect(body.error.code).toBe('internal_error');
  });

  it('the function running out of time is a 503 service_unavailable, in the caller language', async () => {
    const timeout = Object.assign(new Error('Timeout'), { name: 'TimeoutError' });

    const en = await envelopeFor(timeout);
    const zh = await envelopeFor(timeout, { language: 'zh' });

    expect(en.response.statusCode).toBe(503);
    expect(en.body.error.code).toBe('service_unavailable');
    expect(en.body.error.message).toBe(
      'The service is unavailable right now; no points were charged. Retry in a few seconds.',
    );
    expect(en.response.headers['Retry-After']).toBe('5');
    expect(zh.body.error.message).toBe('服务暂时不可用，未扣除点数。请稍后重试。');
  });
});
