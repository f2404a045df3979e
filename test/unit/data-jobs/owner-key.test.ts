/** The owner index's key: an owner's name without case, accents, punctuation, a leading "the" or its corporate form. */
import { lookupKeysOfMark, normalizeOwner, ownerKeyOf } from '../../../shared/marks/lookup-keys';

describe('normalizeOwner', () => {
  it.each([
    ['Spin Master Ltd.', 'spin master'],
    ['SPIN MASTER LTD.', 'spin master'],
    ['Spin Master, Inc.', 'spin master'],
    ['NIKE, INC.', 'nike'],
    ['Nike Inc', 'nike'],
    ['The Coca-Cola Company', 'coca cola'],
    ['THE NORTH FACE APPAREL CORP.', 'north face apparel'],
    ['Acme Widgets, L.L.C.', 'acme widgets'],
    ['Acme Widgets LLC', 'acme widgets'],
    ['Brontavia Co., Ltd.', 'brontavia'],
    ['Brontavia Co. Ltd', 'brontavia'],
    ['Smith & Co.', 'smith'],
    ['Smith and Company', 'smith'],
    ['Müller Confiserie GmbH & Co. KG', 'muller confiserie'],
    ['Lacoste S.A.', 'lacoste'],
    ['Ferrari S.p.A.', 'ferrari'],
    ['Zanotti S.r.l.', 'zanotti'],
    ['Heineken Brouwerijen B.V.', 'heineken brouwerijen'],
    ['Philips N.V.', 'philips'],
    ['Koala Pty Ltd', 'koala'],
    ['Nintendo Co., Ltd.', 'nintendo'],
    ['Sanrio Kabushiki Kaisha', 'sanrio'],
    ['Sanrio K.K.', 'sanrio'],
    ['Burberry Limited', 'burberry'],
    ['Vodafone Group Plc', 'vodafone group'],
    ['Adidas AG', 'adidas'],
    ['River Light V, L.P.', 'river light v'],
    ['Ｓｐｉｎ Ｍａｓｔｅｒ Ｌｔｄ．', 'spin master'],
    ['深圳市星河科技有限公司', '深圳市星河科技'],
    ['株式会社サンリオ', 'サンリオ'],
  ])('%s -> %s', (owner, normalized) => {
    expect(normalizeOwner(owner)).toBe(normalized);
  });

  it('keeps a word when the whole name is a corporate form', () => {
    expect(normalizeOwner('The Company')).toBe('company');
    expect(normalizeOwner('Limited Inc.')).toBe('limited');
    expect(normalizeOwner('The')).toBe('the');
  });

  it('drops a corporate form only at the end, as a whole word', () => {
    expect(normalizeOwner('Incorporated Brands of Cologne')).toBe('incorporated brands of cologne');
    expect(normalizeOwner('Costco Wholesale Corporation')).toBe('costco wholesale');
    expect(normalizeOwner('Disco')).toBe('disco');
  });
});

describe('ownerKeyOf', () => {
  it('is o: and the normalised name, or nothing when no letter is left', () => {
    expect(ownerKeyOf('Spin Master Ltd.')).toBe('o:spin master');
    expect(ownerKeyOf('— , .')).toBeUndefined();
  });

  it('files a mark with an owner under the owner key too, and one without under its text keys only', () => {
    // Its one-edit neighbourhood (d: keys) aside, which lookup-keys.test.ts covers.
    const textKeys = (keys: string[]) => keys.filter((key) => !key.startsWith('d:'));
    expect(textKeys(lookupKeysOfMark('PAW PATROL', undefined, 'Spin Master Ltd.'))).toEqual([
      'e:pawpatrol',
      'p:pwptrl',
      'o:spin master',
    ]);
    expect(textKeys(lookupKeysOfMark('PAW PATROL'))).toEqual(['e:pawpatrol', 'p:pwptrl']);
  });
});
