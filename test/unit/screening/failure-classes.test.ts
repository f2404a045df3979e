/**
 * The failure classes seen when screening titles the engine was never tuned on, each with its cases: the sample
 * corpus plus test/fixtures/screening/failure-class-marks.jsonl, loaded through the real ingest code into the
 * in-memory stores. A case the shipped brand-use model is known to get wrong runs with it.failing and a comment
 * saying what it answers: it is reported (BENCHMARKS.md), and the test fails the day a model gets it right.
 */
import type { ScreeningResult } from '../../../shared/screening/screen-titles';
import { createFailureClassScreening, type InMemoryScreening, screenOne } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createFailureClassScreening('failure-classes-test');
}, 60_000);

const screen = (title: string, nice?: string) => screenOne(corpus, title, nice);

/** The marks raised at 中 or 高. */
const raised = (result: ScreeningResult) => (result.conflicts ?? []).map((c) => c.mark);

describe('brands with stopwords or digits are matched', () => {
  const namesMark = async (title: string, mark: string) => {
    const result = await screen(title);

    expect(result.risk).not.toBe('低');
    expect(result.top_conflict).toBe(mark);
  };
  it.each([
    ['Post-it Super Sticky Notes 3x3 in, 12 Pads', 'Post-it'],
    ["The North Face Men's Resolve 2 Jacket", 'The North Face'],
    ['V7 Cat5e Ethernet Patch Cable 3 m', 'V7'],
    ['Galz4ever Alloy Bracelet', 'Galz4ever'],
  ])('%s names %s', namesMark);
  // Names joined by "&" are one name: before, "H&M" read as the letters "h" and "m", common words (低, 0.04).
  it.each([
    ["H&M Women's Cotton T-Shirt", 'H&M'],
    ['AT&T Prepaid Smartphone', 'AT&T'],
    ["M&M's Chocolate Candies", "M&M'S"],
    ['K&N Air Filter', 'K&N'],
  ])('%s names %s', namesMark);
  it.each([
    ['3M Scotch Transparent Tape 19 mm', '3M'],
    ['3M Transparent Tape 19 mm', '3M'],
  ])('%s names %s', namesMark);
});

describe('a brand that is also a lexicon word is still a brand where it stands as one', () => {
  const namesMark = async (title: string, mark: string) => {
    const result = await screen(title);

    expect(result.risk).not.toBe('低');
    expect(result.top_conflict).toBe(mark);
  };
  it.each([['Radiant Bay Priceless Bond White Gold Diamond 18 K Ring', 'Radiant Bay']])('%s names %s', namesMark);
  // Known miss under 2026-11-28-3654b697 and 2026-11-28-8384e830, fitted with register-scale negatives: Clarion (an
  // English word first, before a model code) scored 0.320 under the first, under its 中 threshold of 0.5789, and is
  // 低 under the second.
  it.failing.each([['Clarion CCA750 RCA Audio Cable', 'Clarion']])('%s names %s', namesMark);
});

describe('a correctly spelt word is no near miss of a mark', () => {
  const notHighOn = async (title: string, mark: string) => {
    const result = await screen(title);

    expect(result.risk === '高' && result.top_conflict === mark).toBe(false);
  };
  it.each([
    ['Crucial MX500 1TB 3D NAND SATA 2.5 Inch Internal solid state drive', 'Stata'],
    ['White Tee Round Neck for Men', 'White T'],
    ['Round Neck White T-Shirt for Men', 'White T'],
  ])('%s is not 高 on %s', notHighOn);
});

describe('a mark cut out of a model code is no brand use', () => {
  it.each([
    ['Canon EF-S 55-250mm f 4.0-5.6 IS STM Lens', 'MMF'],
    ['Kingston cmso4gx3m1a1333c9 4GB DDR3 Laptop RAM', '3M'],
    ['Back Cover for Lenovo x19-1 4d', '4D'],
  ])('%s does not raise %s', async (title, mark) => {
    expect(raised(await screen(title))).not.toContain(mark);
  });
});

describe('an ordinary word that is a mark is judged where it stands', () => {
  const doesNotRaise = async (title: string, mark: string) => {
    expect(raised(await screen(title))).not.toContain(mark);
  };
  it.each([
    ['Nikon Coolpix Digital Camera with 4x optical zoom', 'Zoom'],
    ['Bluetooth speaker with power surge protector', 'Surge'],
    ['surge protector power strip with 6 outlets', 'Surge'],
    ['pci express gigabit network card', 'PCI Express'],
  ])('%s does not raise %s', doesNotRaise);
  // A unit that is also a maker's name is the unit after a number (data/lexicon/SOURCES.md unitsAfterNumber);
  // before, "75 gm" was 高 on GM (0.88) and "1.5 HP" 高 on HP (0.97).
  it.each([
    ['Haldiram Namkeen Bhujia 400 gm Pack', 'GM'],
    ['Glycerine Soap 75gm', 'GM'],
    ['Openwell Submersible Motor Pump 1.5 HP Single Phase', 'HP'],
  ])('%s does not raise %s', doesNotRaise);
  it.each([
    ['Pack of 2 HP 680 Black Ink Cartridge', 'HP'],
    ['GM Car Seat Cover', 'GM'],
  ])('%s still names %s', async (title, mark) => {
    expect((await screen(title)).top_conflict).toBe(mark);
  });
  // "nano", like "mini" and "micro", is a size word of titles (builders/lexicon/hand-lists.ts TITLE_DESCRIPTORS).
  it('nano usb adapter is not 高 on Nano', async () => {
    const result = await screen('nano usb wifi adapter 150mbps');

    expect(result.risk === '高' && result.top_conflict === 'Nano').toBe(false);
  });
});

describe('a brand spelt to dodge filters is as risky as the brand', () => {
  it.each([
    ['Nik\u0435 Air Running Shoes', 'Nike Air Running Shoes', 'Nike'],
    ['N1ke Air Running Shoes', 'Nike Air Running Shoes', 'Nike'],
    ['L0uis Vuitton Neverfull Tote Bag', 'Louis Vuitton Neverfull Tote Bag', 'Louis Vuitton'],
    ['N.i.k.e Air Running Shoes', 'Nike Air Running Shoes', 'Nike'],
    ['G U C C I Leather Belt', 'Gucci Leather Belt', 'Gucci'],
    ['G\u03c5cci Leather Belt with Gold Buckle', 'Gucci Leather Belt with Gold Buckle', 'Gucci'],
  ])('%s', async (evasive, plain, mark) => {
    const [dodged, written] = [await screen(evasive), await screen(plain)];

    expect(dodged.top_conflict).toBe(mark);
    expect(dodged.risk).toBe(written.risk);
    expect(dodged.risk).toBe('高');
  });
});

describe('nominative use', () => {
  it('"Compatible with Apple Watch" is 中 on Apple Watch', async () => {
    const result = await screen('Sport Band Compatible with Apple Watch Band 41mm');

    expect(result).toMatchObject({ risk: '中', top_conflict: 'Apple Watch' });
  });

  it('Hello Kitty plush names Hello Kitty, not hello', async () => {
    expect((await screen('Hello Kitty Plush Toy 12 inch')).top_conflict).toBe('Hello Kitty');
  });

  it('"Gucci belt for men" is 高', async () => {
    expect(await screen('Gucci belt for men')).toMatchObject({ risk: '高', top_conflict: 'Gucci' });
  });
});

describe('tie-breaks', () => {
  it('the brand a case is for before a colour mark', async () => {
    expect((await screen('Silicone Case for Samsung Galaxy S21 Smoke Grey')).top_conflict).toBe('SAMSUNG');
  });
});

describe('unseen-marketplace patterns: a condition word, a model code, a list after "for", a line across words', () => {
  it('reads a name glued to a condition word by a hyphen: "new-xerox 108r00579 transfer roller" is on Xerox', async () => {
    const result = await screen('new-xerox 108r00579 transfer roller');

    expect(result.risk).not.toBe('低');
    expect(result.top_conflict).toBe('Xerox');
  });

  it('finds a brand before its model code in a lower-case title: "canon cli-226 cyan ink tank"', async () => {
    const result = await screen('canon cli-226 cyan ink tank');

    expect(result.risk).not.toBe('低');
    expect(result.top_conflict).toBe('Canon');
  });

  it('names every item of a list after "for" nominatively: "charger for ipod and iphone" is 中, not 高', async () => {
    const result = await screen('charger for ipod and iphone');

    expect(result.risk).toBe('中');
    expect(raised(result)).toContain('iPhone');
  });

  it('reads "new-post-it super sticky notes" as Post-it', async () => {
    expect((await screen('new-post-it super sticky notes')).top_conflict).toBe('Post-it');
  });

  // Both readings are 高 (Store 'n' Go 0.988; GoPro 0.994 and a TRO brand): the one that reads three words as one name
  // keeps them, whichever the model finds more probable.
  it('gives words two marks would share to one reading: "store n go pro usb flash drive" is Store \'n\' Go, not GoPro', async () => {
    const result = await screen('store n go pro usb flash drive');

    expect(result.top_conflict).toBe("Store 'n' Go");
    expect(raised(result)).not.toContain('GoPro');
    expect(result.tro_hit).toBe(false);
  });

  it('keeps a brand whose words no other reading claims: "gopro hero mount" is on GoPro', async () => {
    const result = await screen('gopro hero mount');

    expect(result.top_conflict).toBe('GoPro');
    expect(result.tro_hit).toBe(true);
  });
});

describe('a cue after the brand is as nominative as one before it', () => {
  it.each([
    ['Lego compatible minifigures', 'Lego'],
    ['compatible with Oral-B brush heads', 'Oral B'],
  ])('"%s" is 中 on %s', async (title, mark) => {
    const result = await screen(title);

    expect(result.risk).toBe('中');
    expect(result.top_conflict).toBe(mark);
  });

  it.each([
    ['Lego-compatible building bricks', 'Lego'],
    ['HP-compatible toner cartridge 85A', 'HP'],
  ])('glued to its cue by a hyphen: "%s" is 中 on %s', async (title, mark) => {
    const result = await screen(title);

    expect(result.risk).toBe('中');
    expect(result.top_conflict).toBe(mark);
  });

  it('the brand itself, with no cue, stays 高: "Lego Classic bricks box"', async () => {
    expect((await screen('Lego Classic bricks box')).risk).toBe('高');
  });
});

describe("a device named by its model in a part's title is named nominatively", () => {
  it.each([
    ['HP Pavilion dv5-1008ax 6 Cell Laptop Battery', 'HP'],
    ['Sony Vaio VPC-EH1E1E 75W Laptop Adapter, Black', 'Sony'],
    // A laptop line's short model number (a letter or two and three digits) names the device too.
    ['Lenovo IdeaPad V470 6 Cell Laptop Battery', 'Lenovo'],
  ])('"%s" is 中 on %s, as "battery for HP Pavilion" is', async (title, mark) => {
    const result = await screen(title);

    expect(result.risk).toBe('中');
    expect(result.top_conflict).toBe(mark);
    expect(result.conflicts![0]!.reason).toContain('nominative use');
  });

  it("the part's own maker before the device stays 高 and is top_conflict", async () => {
    const result = await screen('Lapguard HP Pavilion dv5-1005ef Laptop Battery');

    expect(result.risk).toBe('高');
    expect(result.top_conflict).toBe('Lapguard');
    expect(raised(result)).toContain('HP');
  });

  it.each([
    ['HP Pavilion dv5-1008ax Laptop 15.6 inch', 'a whole product'],
    ['HP Laptop Battery 6 Cell', 'no model code'],
    ['HP USB3 Cable', 'a standard, not a model: too short to read as a model code'],
    ['HP N600 Wireless Dual Band', 'the band a router works on is no part'],
  ])('"%s" keeps its brand use (%s)', async (title) => {
    const result = await screen(title);

    expect(result.top_conflict).toBe('HP');
    expect(result.conflicts![0]!.reason).not.toContain('nominative use');
  });
});
