import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  newId,
  randomBase62,
} from '../../../shared/metering/api-keys';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generateApiKey', () => {
  it('has the form tmk_<env>_<32 base62 characters>', () => {
    const key = generateApiKey('live');

    expect(key).toMatch(/^tmk_live_[0-9A-Za-z]{32}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never issues the same key twice in a thousand', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('test')));
    expect(keys.size).toBe(1000);
  });
});

describe('isWellFormedApiKey', () => {
  it.each([
    `tmk_live_${'a'.repeat(32)}`,
    `tmk_test_${'Z9'.repeat(16)}`,
    `tmk_s_${'0'.repeat(32)}`,
    `tmk_staging2_${'x'.repeat(32)}`,
  ])('accepts %s', (key) => {
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it.each([
    `tmk_live_${'a'.repeat(31)}`,
    `tmk_live_${'a'.repeat(33)}`,
    `tmk_Live_${'a'.repeat(32)}`,
    `tmk_2live_${'a'.repeat(32)}`,
    `tmk__${'a'.repeat(32)}`,
    `tmk_live_${'a'.repeat(31)}-`,
    `TMK_live_${'a'.repeat(32)}`,
    ` tmk_live_${'a'.repeat(32)}`,
    `tmk_live_${'a'.repeat(32)}\n`,
    '',
  ])('refuses %j', (key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });
});

describe('randomBase62', () => {
  it.each([0, 1, 16, 32, 100])('gives exactly %i characters', (length) => {
    expect(randomBase62(length)).toHaveLength(length);
  });

  it('uses only the 62 letters and digits, and all of them, with even frequency', () => {
    // Arrange: 124,000 characters, 2,000 expected of each. A modulo bias (byte % 62 over all 256 bytes) would give
    // eight of them about 2,480; chance alone stays within about 4 standard deviations (+-180).
    const text = randomBase62(124_000);

    // Act
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);

    // Assert
    expect([...counts.keys()].sort().join('')).toBe([...BASE62].sort().join(''));
    for (const [ch, count] of counts) {
      expect({ ch, withinBounds: count > 1750 && count < 2250 }).toEqual({ ch, withinBounds: true });
    }
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 of the key, in lower-case hex', () => {
    // Known SHA-256 test vectors (FIPS 180-2).
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes the UTF-8 bytes of a key', () => {
    // Expected values from coreutils: printf '%s' <text> | sha256sum
    expect(hashApiKey('中')).toBe('a567bdaa11367f260f0708391f4d10766b5962f565d9e432f17981a3584fe1e2');
    expect(hashApiKey('tmk_live_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4Z')).toBe(
      'f540de6424099bdf0ded572ffce7cf25421c1b36d2f73b40f77266f4437c0cbb',
    );
  });

  it('differs for keys that differ in one character', () => {
    const key = `tmk_live_${'a'.repeat(32)}`;
    expect(hashApiKey(key)).not.toBe(hashApiKey(`${key.slice(0, -1)}b`));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('displayPrefix', () => {
  it('shows the environment and the first four random characters', () => {
    expect(displayPrefix('tmk_live_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4Z')).toBe('tmk_live_Ab3d…');
  });

  it('never reveals more than four random characters of any key', () => {
    for (const env of ['live', 'test', 'x', 'staging2']) {
      const key = generateApiKey(env);
      const random = key.slice(`tmk_${env}_`.length);

      const prefix = displayPrefix(key);

      expect(prefix).toBe(`tmk_${env}_${random.slice(0, 4)}…`);
      expect(prefix).not.toContain(random.slice(0, 5));
    }
  });
});

describe('newId', () => {
  it.each(['acct', 'key', 'credit'] as const)('%s ids are the kind and 16 base62 characters', (kind) => {
    expect(newId(kind)).toMatch(new RegExp(`^${kind}_[0-9A-Za-z]{16}$`));
  });
});
