import { niceClassSchema } from '../../../shared/schemas/nice-class';

describe('niceClassSchema', () => {
  it.each<[unknown, string]>([
    [9, '09'],
    ['9', '09'],
    ['09', '09'],
    [' 9 ', '09'],
    [1, '01'],
    ['45', '45'],
    [45, '45'],
    [21, '21'],
  ])('%j reads as %j', (input, expected) => {
    const parsed = niceClassSchema.safeParse(input);

    expect(parsed.success).toBe(true);
    expect(parsed.data).toBe(expected);
  });

  it.each<unknown>([
    0,
    46,
    100,
    -1,
    9.5,
    '9.5',
    'abc',
    '',
    '   ',
    '009',
    '+9',
    '0',
    '00',
    '46',
    'IX',
    '9a',
    '1e1',
    null,
    true,
    [9],
    { nice: 9 },
  ])('refuses %j', (input) => {
    const parsed = niceClassSchema.safeParse(input);

    expect(parsed.success).toBe(false);
  });

  it('says what a Nice class is when the value is out of range', () => {
    const parsed = niceClassSchema.safeParse(46);

    expect(parsed.error?.issues.map((i) => i.message)).toEqual(['must be a Nice class from 1 to 45, e.g. 9 or "09"']);
  });

  it.each<unknown>([[[25]], [null], [true], [{ nice: 9 }]])(
    'says what a Nice class is when %j is no number or string',
    (input) => {
      const parsed = niceClassSchema.safeParse(input);

      expect(parsed.error?.issues.map((i) => i.message)).toEqual([
        'must be a Nice class from 1 to 45, e.g. 9 or "09" (one class, not a list)',
      ]);
    },
  );
});
