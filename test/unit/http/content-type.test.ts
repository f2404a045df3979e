import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../../shared/errors';
import { isJsonContentType, jsonBody } from '../../../shared/http/json-body';
import { handMadeRequest, thrownBy } from './hand-made-request';

describe('isJsonContentType', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON; Charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/vnd.api+json',
    'application/problem+json; charset=utf-8',
    '  application/json  ',
  ])('accepts %j', (contentType) => {
    expect(isJsonContentType(contentType)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'text/json',
    'application/jsonp',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'json',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json, text/plain',
  ])('refuses %j', (contentType) => {
    expect(isJsonContentType(contentType)).toBe(false);
  });
});

describe('jsonBody middleware: what the HTTP tests cannot easily send', () => {
  const json = { 'content-type': 'application/json' };

  it('counts the limit in bytes, not characters', async () => {
    // Arrange: 11 characters, 17 bytes in UTF-8 (each Chinese character is 3 bytes).
    const body = '{"a":"中文字"}';
    const request = handMadeRequest({ event: { headers: json, body } });

    // Act
    const error = await thrownBy(() => jsonBody({ maxBodyBytes: 16 }).before!(request));

    // Assert
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect((error as PayloadTooLargeError).details).toEqual({ limit_bytes: 16, actual_bytes: 17 });
  });

  it('accepts a body of exactly the limit', async () => {
    const request = handMadeRequest({ event: { headers: json, body: '{"a":"中文字"}' } });

    await jsonBody({ maxBodyBytes: 17 }).before!(request);

    expect(request.internal.body).toEqual({ a: '中文字' });
  });

  it('decodes a base64-encoded UTF-8 body', async () => {
    const request = handMadeRequest({
      event: {
        headers: json,
        body: Buffer.from('{"title":"咖啡杯"}', 'utf8').toString('base64'),
        isBase64Encoded: true,
      },
    });

    await jsonBody({ maxBodyBytes: 1000 }).before!(request);

    expect(request.internal.body).toEqual({ title: '咖啡杯' });
  });

  it('refuses base64 bytes that are not UTF-8 as invalid_json', async () => {
    // "{"a":"é"}" in Latin-1: the lone 0xE9 byte is not valid UTF-8.
    const latin1 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]);
    const request = handMadeRequest({
      event: { headers: json, body: latin1.toString('base64'), isBase64Encoded: true },
    });

    const error = await thrownBy(() => jsonBody({ maxBodyBytes: 1000 }).before!(request));

    expect(error).toBeInstanceOf(InvalidJsonError);
    expect((error as InvalidJsonError).message).toContain('not valid UTF-8');
    expect(request.internal.body).toBeUndefined();
  });

  it('checks the content type before anything else', async () => {
    const request = handMadeRequest({ event: { headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(50) } });

    const error = await thrownBy(() => jsonBody({ maxBodyBytes: 10 }).before!(request));

    expect(error).toBeInstanceOf(UnsupportedMediaTypeError);
    expect((error as UnsupportedMediaTypeError).details).toEqual({ content_type: 'text/plain' });
  });
});
