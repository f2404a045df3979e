import fc from 'fast-check';
import { canonicalJson } from '../../../shared/http/idempotency';

describe('canonicalJson', () => {
  it('sorts object keys', () => {
    expect(canonicalJson({ b: 1, a: 2, c: 3 })).toBe('{"a":2,"b":1,"c":3}');
  });

  it('sorts keys at every depth, inside arrays too, and keeps array order', () => {
    const value = { z: [{ y: 1, x: [3, 1, 2] }, 'k'], a: { d: null, c: { f: true, e: false } } };

    expect(canonicalJson(value)).toBe('{"a":{"c":{"e":false,"f":true},"d":null},"z":[{"x":[3,1,2],"y":1},"k"]}');
  });

  it('gives two objects that differ only in key order the same text', () => {
    expect(canonicalJson({ points: 10, note: 'a' })).toBe(canonicalJson({ note: 'a', points: 10 }));
  });

  it('tells apart values that differ', () => {
    expect(canonicalJson({ points: 10 })).not.toBe(canonicalJson({ points: '10' }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: { b: 1 } })).not.toBe(canonicalJson({ 'a.b': 1 }));
  });

  it('keeps unicode text as JSON does, in keys and values', () => {
    expect(canonicalJson({ 标题: '咖啡杯 ☕', é: 'ñ', '😀': '👨‍👩‍👧' })).toBe(
      '{"é":"ñ","标题":"咖啡杯 ☕","😀":"👨‍👩‍👧"}',
    );
    expect(canonicalJson({ q: 'say "hi"\n' })).toBe('{"q":"say \\"hi\\"\\n"}');
  });

  it('writes scalars as JSON', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('for any JSON value: parses back to an equal value, and ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        // -0 is written "0" by JSON; compare through JSON to treat it as JSON does.
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reversedKeys(value))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .reverse()
        .map((k) => [k, reversedKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
