import { ParameterConflictError } from '../../../shared/errors';
import { queryMerge } from '../../../shared/http/query-merge';
import { validateInput } from '../../../shared/http/validate-input';
import {
  imageSearchRequestSchema,
  IMAGE_SEARCH_QUERY_FIELDS,
  precheckImageSearch,
} from '../../../functions/image-search/schema';
import { InvalidRequestError } from '../../../shared/errors';
import { handMadeRequest, thrownBy } from './hand-made-request';

const fields = { limit: 'integer', ratio: 'number', note: 'string' } as const;

function merge(body: Record<string, unknown>, query: Record<string, string>) {
  const request = handMadeRequest({ event: { queryStringParameters: query }, internal: { body } });
  queryMerge({ fields }).before!(request);
  return request.internal.rawInput;
}

describe('queryMerge', () => {
  it('adds declared query fields, read as their type', () => {
    expect(merge({}, { limit: '10', ratio: '0.25', note: '42' })).toEqual({ limit: 10, ratio: 0.25, note: '42' });
  });

  it('accepts the same value in both places and keeps the body value', () => {
    expect(merge({ note: 'hi' }, { note: 'hi' })).toEqual({ note: 'hi' });
    expect(merge({ limit: 10 }, { limit: '10' })).toEqual({ limit: 10 });
    expect(merge({ ratio: 0.5 }, { ratio: '0.50' })).toEqual({ ratio: 0.5 });
  });

  it('the same number written two ways is one value (Nice class 9 and "09")', () => {
    expect(merge({ note: 9 }, { note: '09' })).toEqual({ note: 9 });
  });

  it('reads only plain decimals as numbers: hex, exponents and blanks stay text for validation to refuse', () => {
    expect(merge({}, { limit: '0x10' })).toEqual({ limit: '0x10' });
    expect(merge({}, { limit: '1e1' })).toEqual({ limit: '1e1' });
    expect(merge({}, { limit: ' ' })).toEqual({ limit: ' ' });
    expect(merge({}, { limit: '2.5' })).toEqual({ limit: '2.5' });
  });

  it('a body number and the query text "10" are the same value', () => {
    expect(merge({ note: 10 }, { note: '10' })).toEqual({ note: 10 });
  });

  it('different values are a parameter_conflict naming the field', async () => {
    const request = handMadeRequest({
      event: { queryStringParameters: { limit: '20' } },
      internal: { body: { limit: 10 } },
    });

    const error = await thrownBy(() => queryMerge({ fields }).before!(request));

    expect(error).toBeInstanceOf(ParameterConflictError);
    const conflict = error as ParameterConflictError;
    expect(conflict.status).toBe(400);
    expect(conflict.code).toBe('parameter_conflict');
    expect(conflict.details).toEqual({ field: 'limit', body: 10, query: '20' });
    expect(conflict.messages.en).toContain('"limit"');
    expect(conflict.messages.zh).toContain('"limit"');
  });

  it('an object in the body never equals a query string', async () => {
    const request = handMadeRequest({
      event: { queryStringParameters: { note: '[object Object]' } },
      internal: { body: { note: {} } },
    });

    const error = await thrownBy(() => queryMerge({ fields }).before!(request));

    expect(error).toBeInstanceOf(ParameterConflictError);
  });

  it('ignores undeclared query parameters', () => {
    expect(merge({ limit: 5 }, { utm_source: 'mail', limit: '5', debug: 'true' })).toEqual({ limit: 5 });
  });

  it('a body field set to undefined does not count as given', () => {
    expect(merge({ limit: undefined }, { limit: '7' })).toEqual({ limit: 7 });
  });

  it.each([
    ['abc', 'abc'],
    ['1.5', '1.5'],
    ['', ''],
    ['Infinity', 'Infinity'],
  ])('leaves %j for an integer field as text', (raw, expected) => {
    expect(merge({}, { limit: raw })).toEqual({ limit: expected });
  });

  it('"abc" for an integer field then fails validation, naming the field', async () => {
    // Arrange: image-search reads `limit` from the query as an integer.
    const request = handMadeRequest({
      event: { queryStringParameters: { limit: 'abc' } },
      internal: { body: { url: 'https://example.com/logo.png' } },
    });
    queryMerge({ fields: IMAGE_SEARCH_QUERY_FIELDS }).before!(request);

    // Act
    const error = await thrownBy(() =>
      validateInput({ schema: imageSearchRequestSchema, precheck: precheckImageSearch }).before!(request),
    );

    // Assert
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).details).toEqual({
      issues: [{ field: 'limit', message: 'must be a whole number from 1 to 50' }],
    });
  });

  it('a query source and a body source are two sources (image-search precheck sees the merge)', async () => {
    const request = handMadeRequest({
      event: { queryStringParameters: { url: 'https://example.com/a.png' } },
      internal: { body: { image_b64: 'aGVsbG8=' } },
    });
    queryMerge({ fields: IMAGE_SEARCH_QUERY_FIELDS }).before!(request);

    const error = await thrownBy(() =>
      validateInput({ schema: imageSearchRequestSchema, precheck: precheckImageSearch }).before!(request),
    );

    expect((error as { code?: string }).code).toBe('image_source_conflict');
  });
});
