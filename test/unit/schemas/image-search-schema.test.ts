import { CountryNotSupportedError } from '../../../shared/errors';
import { ImageSourceConflictError, ImageSourceMissingError } from '../../../shared/imaging/image-errors';
import { issuesOf } from '../../../shared/http/validate-input';
import { imageSearchRequestSchema, precheckImageSearch } from '../../../functions/image-search/schema';

function thrownBy(raw: Record<string, unknown>): unknown {
  try {
    precheckImageSearch(raw);
    return undefined;
  } catch (error) {
    return error;
  }
}

function issuesFor(body: unknown) {
  const parsed = imageSearchRequestSchema.safeParse(body);
  return parsed.success ? [] : issuesOf(parsed.error);
}

const URL = 'https://example.com/logo.png';

describe('image-search precheck', () => {
  it.each(['us', 'cn', 'UK', 'USA', '', 1, null])('refuses country %j with country_not_supported', (country) => {
    const error = thrownBy({ url: URL, country });

    expect(error).toBeInstanceOf(CountryNotSupportedError);
    expect((error as CountryNotSupportedError).status).toBe(400);
    expect((error as CountryNotSupportedError).details).toEqual({ country, supported: ['US', 'CN'] });
  });

  it.each(['US', 'CN', undefined])('accepts country %j', (country) => {
    expect(thrownBy({ url: URL, ...(country ? { country } : {}) })).toBeUndefined();
  });

  it('refuses both image sources with image_source_conflict', () => {
    const error = thrownBy({ url: URL, image_b64: 'aGVsbG8=' });

    expect(error).toBeInstanceOf(ImageSourceConflictError);
    expect((error as ImageSourceConflictError).code).toBe('image_source_conflict');
  });

  it('refuses neither source (or both null) with image_source_missing', () => {
    expect(thrownBy({})).toBeInstanceOf(ImageSourceMissingError);
    expect(thrownBy({ url: null, image_b64: null, limit: 5 })).toBeInstanceOf(ImageSourceMissingError);
  });

  it('checks the country before the image source', () => {
    expect(thrownBy({ country: 'jp' })).toBeInstanceOf(CountryNotSupportedError);
  });
});

describe('image-search schema', () => {
  it('defaults country to US and limit to 10', () => {
    const parsed = imageSearchRequestSchema.safeParse({ url: URL });

    expect(parsed.data).toEqual({ url: URL, country: 'US', limit: 10, detail: false });
  });

  it('keeps given values and reads nice to two digits', () => {
    const parsed = imageSearchRequestSchema.safeParse({ image_b64: 'aGVsbG8=', country: 'CN', nice: '9', limit: 50 });

    expect(parsed.data).toEqual({ image_b64: 'aGVsbG8=', country: 'CN', nice: '09', limit: 50, detail: false });
  });

  it.each<[unknown, string]>([
    [0, 'must be at least 1'],
    [51, 'must be at most 50'],
    ['abc', 'must be a whole number from 1 to 50'],
    ['10', 'must be a whole number from 1 to 50'],
    [2.5, 'must be a whole number from 1 to 50'],
    [-3, 'must be at least 1'],
  ])('refuses limit %j', (limit, message) => {
    expect(issuesFor({ url: URL, limit })).toEqual([{ field: 'limit', message }]);
  });

  it.each([1, 50])('accepts limit %i', (limit) => {
    expect(issuesFor({ url: URL, limit })).toEqual([]);
  });

  it('refuses an empty url', () => {
    expect(issuesFor({ url: '' })).toEqual([{ field: 'url', message: 'must not be empty' }]);
  });
});
