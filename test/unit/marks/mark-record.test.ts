import fc from 'fast-check';
import { excerpt, markRecordSchema, toNiceClass } from '../../../shared/marks/mark-record';
import {
  currentGoodsText,
  currentOwnerName,
  registrationNumberOrNone,
  usptoDateToIso,
} from '../../../shared/marks/uspto-fields';

const VALID_RECORD = {
  serial: '87310367',
  markText: 'TUSIMPLE',
  niceClasses: ['09'],
  statusCode: '700',
  statusCategory: 'registered',
  isLive: true,
  drawingKind: 'word',
  market: 'US',
  source: 'test',
  batchDate: '2018-02-18',
};

describe('markRecordSchema', () => {
  it('accepts a complete record and refuses unknown fields', () => {
    expect(markRecordSchema.safeParse(VALID_RECORD).success).toBe(true);
    expect(markRecordSchema.safeParse({ ...VALID_RECORD, lookupKeys: ['tusimple'] }).success).toBe(false);
  });

  it.each([
    ['a three-digit class', { niceClasses: ['009'] }],
    ['class 46', { niceClasses: ['46'] }],
    ['an impossible batch date', { batchDate: '2018-02-30' }],
    ['a pending mark marked live', { statusCategory: 'pending' }],
    ['a market outside US and CN', { market: 'EU' }],
    ['a goods excerpt over 300 characters', { goodsExcerpt: 'x'.repeat(301) }],
  ])('refuses %s', (_label, change) => {
    expect(markRecordSchema.safeParse({ ...VALID_RECORD, ...change }).success).toBe(false);
  });
});

describe('toNiceClass', () => {
  it.each([
    [9, '09'],
    ['9', '09'],
    ['009', '09'],
    ['45', '45'],
    ['0', undefined],
    ['46', undefined],
    ['A', undefined],
    ['200', undefined],
  ])('%s -> %s', (input, expected) => {
    expect(toNiceClass(input)).toBe(expected);
  });
});

describe('excerpt', () => {
  it('never exceeds its limit and always starts like the collapsed text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 1000 }), fc.integer({ min: 10, max: 400 }), (text, limit) => {
        const cut = excerpt(text, limit);
        const collapsed = text.replace(/\s+/g, ' ').trim();
        expect(cut.length).toBeLessThanOrEqual(limit);
        expect(collapsed.startsWith(cut.endsWith('…') ? cut.slice(0, -1) : cut)).toBe(true);
      }),
    );
  });
});

describe('USPTO field conventions', () => {
  it('takes the owner with the highest party type, never a legacy correspondent (70)', () => {
    expect(
      currentOwnerName([
        { partyType: 10, name: 'Original Applicant' },
        { partyType: 70, name: 'Correspondent Law Firm' },
        { partyType: 31, name: 'Owner After Registration' },
        { partyType: 30, name: 'Original Registrant' },
      ]),
    ).toBe('Owner After Registration');
    expect(currentOwnerName([])).toBeUndefined();
  });

  it('reads both USPTO date forms and drops impossible dates', () => {
    expect(usptoDateToIso('20170123')).toBe('2017-01-23');
    expect(usptoDateToIso('2000-05-09-04:00')).toBe('2000-05-09');
    expect(usptoDateToIso('19470600')).toBeUndefined();
    expect(usptoDateToIso('0')).toBeUndefined();
    expect(usptoDateToIso(undefined)).toBeUndefined();
  });

  it('reads "0000000" as no registration', () => {
    expect(registrationNumberOrNone('0000000')).toBeUndefined();
    expect(registrationNumberOrNone('0124134')).toBe('0124134');
  });

  it('drops deleted [..] and withdrawn ((..)) goods and the asterisks of added wording', () => {
    expect(currentGoodsText('SHIRTS, [ HATS, ] *CAPS* ((AND SOCKS)) ; SHOES')).toBe('SHIRTS, CAPS; SHOES');
  });
});
