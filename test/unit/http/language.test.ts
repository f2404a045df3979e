import { languageOf, pick } from '../../../shared/http/language';

describe('languageOf (Accept-Language)', () => {
  it.each([
    ['zh', 'zh'],
    ['zh-CN', 'zh'],
    ['zh-TW', 'zh'],
    ['zh-Hant-HK', 'zh'],
    ['ZH-cn', 'zh'],
    ['en', 'en'],
    ['en-US', 'en'],
  ])('a single tag %s gives %s', (header, expected) => {
    expect(languageOf(header)).toBe(expected);
  });

  it('answers in English when there is no header or an empty one', () => {
    expect(languageOf(undefined)).toBe('en');
    expect(languageOf('')).toBe('en');
  });

  it.each([
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en-US,en;q=0.9,zh-CN;q=0.8', 'en'],
    ['en;q=0.5, zh;q=0.9', 'zh'],
    ['zh-CN;q=0.5, en;q=0.9', 'en'],
    ['zh; q=0.9, en; q=0.8', 'zh'],
    ['en;Q=0.2, zh-TW;Q=0.3', 'zh'],
    ['fr-FR, de;q=0.9, zh;q=0.5', 'zh'],
    ['fr-FR, de;q=0.9, en;q=0.5', 'en'],
  ])('weighs q-values: %s gives %s', (header, expected) => {
    expect(languageOf(header)).toBe(expected);
  });

  it('on equal weights the tag listed first wins', () => {
    expect(languageOf('zh, en')).toBe('zh');
    expect(languageOf('en, zh')).toBe('en');
    expect(languageOf('zh-CN;q=0.7, en;q=0.7')).toBe('zh');
  });

  it('"*" stands for English, the default', () => {
    expect(languageOf('*')).toBe('en');
    expect(languageOf('zh;q=0.8, *')).toBe('en');
    expect(languageOf('*;q=0.1, zh;q=0.6')).toBe('zh');
  });

  it.each(['klingon', ';;;,,,', 'zh;q=abc', 'q=0.9', '\u0000\u0001', 'fr, de', '🐼'])(
    'garbage %j falls back to English',
    (header) => {
      expect(languageOf(header)).toBe('en');
    },
  );

  it('a malformed q-value drops only its own tag', () => {
    expect(languageOf('en;q=oops, zh;q=0.2')).toBe('zh');
  });

  // RFC 9110 section 12.4.2: "a value of 0 means not acceptable". A client that refuses Chinese must not get it.
  it('q=0 marks a language as not acceptable', () => {
    expect(languageOf('zh;q=0')).toBe('en');
  });
});

describe('pick', () => {
  it('returns the message in the chosen language', () => {
    const messages = { en: 'hello', zh: '你好' };
    expect(pick(messages, 'en')).toBe('hello');
    expect(pick(messages, 'zh')).toBe('你好');
  });
});
