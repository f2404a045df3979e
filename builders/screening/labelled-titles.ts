/**
 * The labelled listing titles in test/fixtures/titles, read one way for the frequency table, the training command
 * and the evaluation:
 *   flipkart-dev    product_name with its brand column (the rows of label-errata.csv take the maker the title
 *                   names first, as that file says by hand);
 *   amazon-google   title with its manufacturer (rows without one are unlabelled);
 *   markup-amazon   Amazon's device and accessory titles; their label is the Amazon mark they name (Kindle, Echo,
 *                   Fire TV, Ring ...), all one brand group, Amazon.
 */
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { joined, normalizeText } from '../../shared/marks/lookup-keys';

export const TITLES_DIR = path.join(__dirname, '../../test/fixtures/titles');

export type LabelledSet = 'flipkart-dev' | 'amazon-google' | 'markup-amazon';

export const LABELLED_SETS: readonly LabelledSet[] = ['flipkart-dev', 'amazon-google', 'markup-amazon'];

export interface LabelledTitle {
  /** `feedback`: a seller's report, exported by the admin CLI (builders/screening/feedback-examples.ts). */
  set: LabelledSet | 'feedback';
  id: string;
  title: string;
  /** The brand as labelled ("" when the row has none). */
  brand: string;
  /**
   * What the split goes by: the key of the maker's name (makerName: "Adobe Systems Inc" and "adobe software" are
   * one maker, Adobe); all of Amazon's marks are one group.
   */
  group: string;
  /** Marks whose use in this title is the labelled brand's (keys as brandKey gives them). */
  brandKeys: string[];
}

export const brandKey = (text: string): string => joined(normalizeText(text));

/**
 * Words that say what form of company a name is, or what trade it is in, after the name itself: "Inc", "Corp",
 * "Software", "Publishing" ... The labels name one maker several ways ("Adobe", "adobe software", "Adobe Systems
 * Inc"); the mark is the name before them (ADOBE).
 */
const COMPANY_FORM_WORDS = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'llc',
  'plc',
  'gmbh',
  'software',
  'systems',
  'interactive',
  'entertainment',
  'publishing',
  'media',
  'games',
  'development',
  'technology',
  'technologies',
  'labs',
  'usa',
  'partners',
  'international',
  'products',
  'group',
  'industries',
  'enterprises',
]);

/** The brand without the company-form words at its end ("Avanquest Publishing USA Inc" -> "Avanquest"). */
export function makerName(brand: string): string {
  const words = brand.trim().split(/\s+/);
  while (words.length > 1) {
    const last = words[words.length - 1]!.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
    if (last !== '' && !COMPANY_FORM_WORDS.has(last)) break;
    words.pop();
  }
  return words.join(' ');
}

/**
 * The group and keys of a labelled brand: the group is its maker's name's key, so that one maker's titles share a
 * split; the key is the brand's as labelled. (Taking the maker's name as a key too, so that ADOBE in "adobe software
 * acrobat pro" is a brand use, was tried: BENCHMARKS.md, "Screening: against the aims".)
 */
function brandIdentity(brand: string): Pick<LabelledTitle, 'group' | 'brandKeys'> {
  if (!brand) return { group: '', brandKeys: [] };
  return { group: brandKey(makerName(brand)), brandKeys: [brandKey(brand)] };
}

/** Amazon's marks as the Markup's titles name them, longest first. */
export const AMAZON_MARKS = [
  'Amazon Basics',
  'AmazonBasics',
  'Fire TV',
  'Kindle',
  'Echo',
  'Alexa',
  'Ring',
  'Blink',
  'Eero',
  'Amazon',
];

function flipkart(): LabelledTitle[] {
  const dir = path.join(TITLES_DIR, 'flipkart-dev');
  const rows = parse(readFileSync(path.join(dir, 'flipkart_dev.csv'), 'utf8'), { columns: true }) as {
    uniq_id: string;
    product_name: string;
    brand: string;
  }[];
  const errata = new Map(
    (
      parse(readFileSync(path.join(dir, 'label-errata.csv'), 'utf8'), { columns: true }) as {
        uniq_id: string;
        maker_in_title: string;
      }[]
    ).map((r) => [r.uniq_id, r.maker_in_title]),
  );
  return rows.map((r) => {
    const brand = (errata.get(r.uniq_id) ?? r.brand).trim();
    return {
      set: 'flipkart-dev',
      id: r.uniq_id,
      title: r.product_name,
      brand,
      ...brandIdentity(brand),
    };
  });
}

function amazonGoogle(): LabelledTitle[] {
  const file = path.join(TITLES_DIR, 'amazon-google/amazon_google_title_manufacturer.csv');
  const rows = parse(readFileSync(file, 'utf8'), { columns: true }) as { title: string; manufacturer: string }[];
  return rows.map((r, i) => {
    const brand = r.manufacturer.trim();
    return {
      set: 'amazon-google',
      id: `ag-${i}`,
      title: r.title,
      brand,
      ...brandIdentity(brand),
    };
  });
}

function markupAmazon(): LabelledTitle[] {
  const titles = JSON.parse(readFileSync(path.join(TITLES_DIR, 'markup-amazon/titles.json'), 'utf8')) as Record<
    string,
    string
  >;
  return Object.entries(titles).map(([asin, title]) => {
    const key = brandKey(title);
    const named = AMAZON_MARKS.filter((mark) =>
      new RegExp(`(^|[^\\p{L}\\p{N}])${mark}(?=$|[^\\p{L}\\p{N}])`, 'iu').test(title),
    );
    const brand = named[0] ?? '';
    return {
      set: 'markup-amazon',
      id: asin,
      title,
      brand,
      group: brand ? 'amazon' : '',
      brandKeys: named.map(brandKey).filter((k) => key.includes(k)),
    };
  });
}

export function labelledTitles(): LabelledTitle[] {
  return [...flipkart(), ...amazonGoogle(), ...markupAmazon()];
}

/** Every title of the three sets, labelled or not (for the frequency table). */
export function allTitles(): string[] {
  return labelledTitles().map((t) => t.title);
}
