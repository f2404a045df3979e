/**
 * Builds the US sample corpus and its logo batch from public brand lists:
 *   npx tsx builders/build-sample-corpus.ts [--brand-list DIR] [--packages DIR] [--out data/sample]
 *
 * Input: the Amazon brand list (brands.txt, MIT), and the simple-icons (CC0) and devicon (MIT) npm packages, found
 * under --packages (a node_modules folder; default: this project's). Nothing is fetched.
 * Output: <out>/us-marks.jsonl (canonical mark JSONL, market US) and <out>/logos/ (logos.jsonl + SVG files).
 * Steps:
 *   1. read the three lists in a fixed order (Amazon list, simple-icons, devicon, then the hand-made class table's
 *      brands that no list has) and keep the first spelling of each brand, compared without case or punctuation;
 *   2. give each brand the Nice classes that can honestly be known (see niceClassesOf) and a sample serial;
 *   3. validate every line with the canonical JSONL schema before writing anything;
 *   4. copy the plain, self-contained SVG logos of the sample marks that have one, with a manifest line each.
 * The same inputs always give the same files, so the corpus can be rebuilt and diffed.
 *
 * Over 400 lines: most of it is the SVG self-containment check (step 4) and the class table reader (step 2), each
 * used only here; a one-off builder, run by hand, read top to bottom.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { SaxesParser } from 'saxes';
import { markJsonlLineSchema, type MarkJsonlLine } from '../shared/marks/cn-jsonl';

const ROOT = path.resolve(__dirname, '..');

/** Serial prefix that no trademark office uses; USPTO serials are 8 digits. */
export const US_SAMPLE_SERIAL_PREFIX = 'US-SAMPLE-';

type BrandSource = 'amazon-brand-list' | 'simple-icons' | 'devicon' | 'hand-table';

interface Brand {
  mark: string;
  key: string;
  sources: Set<BrandSource>;
  simpleIconsSlug?: string;
  deviconName?: string;
  /** Evidence that the brand is software or an online service (devicon, a code-hosting logo source ...). */
  software: boolean;
}

/** Case-, accent- and punctuation-insensitive identity of a brand name ("Adam's" = "ADAMS", "Citroën" = "citroen"). */
export function brandKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Names in the icon sets that are languages, formats or protocols rather than anyone's trademark: as marks they
 * would only produce false alarms ("C" in "USB C cable").
 */
const NOT_TRADEMARKS = new Set(
  [
    'c',
    'cplusplus',
    'csharp',
    'objectivec',
    'embeddedc',
    'html5',
    'html',
    'css3',
    'css',
    'json',
    'jsonld',
    'markdown',
    'sql',
    'xml',
    'yaml',
    'toml',
    'bash',
    'ssh',
    'awk',
    'cobol',
    'fortran',
    'oauth',
    'webassembly',
    'wasm',
    'rss',
    'apl',
    'rexx',
    'prolog',
    'lisp',
    'commonlisp',
    'assembly',
    'assemblyscript',
    'unifiedmodelinglanguage',
  ].map(brandKey),
);

/** Hosts of logo sources that mean the brand is a software project or service (the logo came from its code). */
const SOFTWARE_SOURCE_HOSTS = [
  'github.com',
  'gitlab.com',
  'codeberg.org',
  'bitbucket.org',
  'sourceforge.net',
  'apache.org',
  'www.jetbrains.com',
  'cncf-branding.netlify.app',
  'www.hashicorp.com',
  'developers.google.com',
  'cloud.google.com',
  'developer.apple.com',
  'www.elastic.co',
  'www.npmjs.com',
  'pypi.org',
];

const SOFTWARE_TITLE = /(\.js|JS|Linux|DB|SQL|API|SDK|CLI|IDE)$/;

/** Software and online services: downloadable software (9) and software as a service / IT services (42). */
const SOFTWARE_CLASSES = [9, 42];

/**
 * Words in an Amazon-list brand name that make its product domain evident ("13 Fishing", "Abu Garcia" does not).
 * Deliberately short: a word is listed only when it points at one class.
 */
const CLASS_BY_NAME_WORD: ReadonlyMap<string, number> = new Map([
  ['fishing', 28],
  ['tackle', 28],
  ['lures', 28],
  ['lure', 28],
  ['baits', 28],
  ['bait', 28],
  ['rods', 28],
  ['golf', 28],
  ['toys', 28],
  ['archery', 28],
  ['spice', 30],
  ['spices', 30],
  ['coffee', 30],
  ['tea', 30],
  ['chocolate', 30],
  ['candy', 30],
  ['candle', 4],
  ['candles', 4],
  ['cosmetics', 3],
  ['polishes', 3],
  ['polish', 3],
  ['soap', 3],
  ['skincare', 3],
  ['vitamins', 5],
  ['optics', 9],
  ['audio', 9],
  ['electronics', 9],
  ['lighting', 11],
  ['tools', 8],
  ['tool', 8],
  ['knives', 8],
  ['knife', 8],
  ['cutlery', 8],
  ['bikes', 12],
  ['bicycles', 12],
  ['jewelry', 14],
  ['watches', 14],
  ['luggage', 18],
  ['bags', 18],
  ['apparel', 25],
  ['clothing', 25],
  ['footwear', 25],
  ['shoes', 25],
  ['socks', 25],
  ['boots', 25],
  ['guitars', 15],
  ['pens', 16],
  ['paints', 2],
  ['paint', 2],
]);

interface CliOptions {
  brandListDir: string;
  packagesDir: string;
  outDir: string;
}

function optionsFrom(argv: readonly string[]): CliOptions {
  const optionValue = (flag: string): string | undefined => {
    const index = argv.indexOf(flag);
    return index === -1 ? undefined : argv[index + 1];
  };
  return {
    brandListDir: optionValue('--brand-list') ?? '/work/shared/data/lexicon/amazon-brand-list',
    packagesDir: optionValue('--packages') ?? path.join(ROOT, 'node_modules'),
    outDir: optionValue('--out') ?? path.join(ROOT, 'data/sample'),
  };
}

interface SimpleIcon {
  title: string;
  slug: string;
  source: string;
  license?: { type: string };
}

interface DeviconEntry {
  name: string;
  altnames: string[];
  versions: { svg: string[] };
}

function readKnownBrandClasses(): Map<string, { brand: string; nice: number[] }> {
  const text = readFileSync(path.join(__dirname, 'sample-corpus/known-brand-classes.csv'), 'utf8');
  const rows = parse(text, { columns: true, comment: '#', skip_empty_lines: true, trim: true }) as {
    brand: string;
    nice: string;
  }[];
  return new Map(
    rows.map((row) => [brandKey(row.brand), { brand: row.brand, nice: row.nice.split(/\s+/).map(Number) }]),
  );
}

/** Title of a devicon entry: devicon has only lower-case identifiers, so a display name is borrowed when one exists. */
function deviconTitle(entry: DeviconEntry, simpleIconTitleByKey: ReadonlyMap<string, string>): string {
  const matched = simpleIconTitleByKey.get(brandKey(entry.name));
  if (matched !== undefined) return matched;
  const spelled = entry.altnames.find((name) => /[A-Z ]/.test(name) && brandKey(name) === brandKey(entry.name));
  if (spelled !== undefined) return spelled;
  return entry.name.charAt(0).toUpperCase() + entry.name.slice(1);
}

function isSoftwareIcon(icon: SimpleIcon): boolean {
  let host = '';
  try {
    host = new URL(icon.source).host;
  } catch {
    host = '';
  }
  return (
    SOFTWARE_SOURCE_HOSTS.some((known) => host === known || host.endsWith(`.${known}`)) ||
    SOFTWARE_TITLE.test(icon.title)
  );
}

function collectBrands(options: CliOptions): Brand[] {
  const brands = new Map<string, Brand>();
  const add = (mark: string, source: BrandSource, extra: Partial<Brand> = {}): void => {
    const trimmed = mark.replace(/\s+/g, ' ').trim();
    const key = brandKey(trimmed);
    if (key.length < 2 || NOT_TRADEMARKS.has(key)) return;
    const existing = brands.get(key);
    if (existing === undefined) {
      brands.set(key, { mark: trimmed, key, sources: new Set([source]), software: false, ...extra });
      return;
    }
    existing.sources.add(source);
    existing.simpleIconsSlug ??= extra.simpleIconsSlug;
    existing.deviconName ??= extra.deviconName;
    existing.software ||= extra.software ?? false;
  };

  for (const line of readFileSync(path.join(options.brandListDir, 'brands.txt'), 'utf8').split(/\r?\n/)) {
    if (line.trim() !== '') add(line, 'amazon-brand-list');
  }

  const simpleIcons = JSON.parse(
    readFileSync(path.join(options.packagesDir, 'simple-icons/data/simple-icons.json'), 'utf8'),
  ) as SimpleIcon[];
  const simpleIconTitleByKey = new Map(simpleIcons.map((icon) => [brandKey(icon.slug), icon.title]));
  for (const icon of simpleIcons) {
    add(icon.title, 'simple-icons', { simpleIconsSlug: icon.slug, software: isSoftwareIcon(icon) });
  }

  const devicon = JSON.parse(
    readFileSync(path.join(options.packagesDir, 'devicon/devicon.json'), 'utf8'),
  ) as DeviconEntry[];
  for (const entry of devicon) {
    add(deviconTitle(entry, simpleIconTitleByKey), 'devicon', { deviconName: entry.name, software: true });
  }

  for (const known of readKnownBrandClasses().values()) add(known.brand, 'hand-table');
  return [...brands.values()];
}

function niceClassesOf(brand: Brand, known: ReadonlyMap<string, { nice: number[] }>): number[] {
  const fromTable = known.get(brand.key);
  if (fromTable !== undefined) return [...fromTable.nice].sort((a, b) => a - b);
  if (brand.software) return SOFTWARE_CLASSES;
  if (brand.sources.has('amazon-brand-list')) {
    const classes = new Set<number>();
    for (const word of brand.mark.toLowerCase().split(/[^a-z]+/)) {
      const niceClass = CLASS_BY_NAME_WORD.get(word);
      if (niceClass !== undefined) classes.add(niceClass);
    }
    return [...classes].sort((a, b) => a - b);
  }
  return [];
}

export function sampleSerial(index: number): string {
  return `${US_SAMPLE_SERIAL_PREFIX}${String(index).padStart(6, '0')}`;
}

interface LogoLine {
  serial: string;
  mark: string;
  file: string;
  nice: number[];
  is_live: true;
  source: 'simple-icons' | 'devicon';
}

/** A logo is shipped only when it is well-formed XML that draws itself: no scripts, images or outside references. */
export function isSelfContainedSvg(svg: string): boolean {
  if (!/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(svg)) return false;
  if (/<(script|image|foreignObject|use)\b|@import|url\(\s*['"]?(?!#)|\son[a-z]+\s*=/i.test(svg)) return false;
  const hrefs = svg.match(/href\s*=\s*["'][^"']*["']/gi) ?? [];
  if (hrefs.some((href) => !/=\s*["']#/.test(href))) return false;
  const parser = new SaxesParser({ xmlns: false });
  try {
    parser.write(svg).close();
    return true;
  } catch {
    return false;
  }
}

function logoLine(
  record: { serial: string; mark: string; nice: number[] },
  file: string,
  source: LogoLine['source'],
): LogoLine {
  return { serial: record.serial, mark: record.mark, file, nice: record.nice, is_live: true, source };
}

const MAX_SIMPLE_ICONS_LOGOS = 260;
const MAX_DEVICON_LOGOS = 60;
const MAX_LOGO_BYTES = 12 * 1024;

function copyLogos(
  records: readonly { serial: string; mark: string; nice: number[]; brand: Brand }[],
  options: CliOptions,
): LogoLine[] {
  const logosDir = path.join(options.outDir, 'logos');
  rmSync(path.join(logosDir, 'simple-icons'), { recursive: true, force: true });
  rmSync(path.join(logosDir, 'devicon'), { recursive: true, force: true });
  mkdirSync(path.join(logosDir, 'simple-icons'), { recursive: true });
  mkdirSync(path.join(logosDir, 'devicon'), { recursive: true });
  // Copied data keeps its licence next to it.
  copyFileSync(
    path.join(options.packagesDir, 'simple-icons/LICENSE.md'),
    path.join(logosDir, 'simple-icons/LICENSE.md'),
  );
  copyFileSync(path.join(options.packagesDir, 'devicon/LICENSE'), path.join(logosDir, 'devicon/LICENSE'));

  const simpleIcons = JSON.parse(
    readFileSync(path.join(options.packagesDir, 'simple-icons/data/simple-icons.json'), 'utf8'),
  ) as SimpleIcon[];
  // Simple Icons is CC0 as a collection, but some icons carry their own licence: only CC0 or unmarked ones ship.
  const licenceOk = new Map(
    simpleIcons.map((icon) => [icon.slug, icon.license === undefined || icon.license.type === 'CC0-1.0']),
  );
  const devicon = new Map(
    (JSON.parse(readFileSync(path.join(options.packagesDir, 'devicon/devicon.json'), 'utf8')) as DeviconEntry[]).map(
      (entry) => [entry.name, entry],
    ),
  );

  // Well-known brands with classes first (they matter most for demos), then the rest in serial order.
  const priority = (record: { nice: number[]; brand: Brand }): number =>
    record.brand.sources.has('hand-table') ? 2 : record.nice.length > 0 ? 1 : 0;
  const ordered = [...records].sort((a, b) => priority(b) - priority(a));
  const lines: LogoLine[] = [];
  let simpleIconsCount = 0;
  let deviconCount = 0;
  for (const record of ordered) {
    const slug = record.brand.simpleIconsSlug;
    if (slug !== undefined && simpleIconsCount < MAX_SIMPLE_ICONS_LOGOS && licenceOk.get(slug) === true) {
      const from = path.join(options.packagesDir, 'simple-icons/icons', `${slug}.svg`);
      const svg = existsSync(from) ? readFileSync(from, 'utf8') : '';
      if (svg.length > 0 && svg.length <= MAX_LOGO_BYTES && isSelfContainedSvg(svg)) {
        copyFileSync(from, path.join(logosDir, 'simple-icons', `${slug}.svg`));
        lines.push(logoLine(record, `simple-icons/${slug}.svg`, 'simple-icons'));
        simpleIconsCount += 1;
        continue;
      }
    }
    const name = record.brand.deviconName;
    const entry = name === undefined ? undefined : devicon.get(name);
    if (entry !== undefined && deviconCount < MAX_DEVICON_LOGOS) {
      const variant = ['original', 'plain'].find((candidate) => entry.versions.svg.includes(candidate));
      if (variant === undefined) continue;
      const fileName = `${entry.name}-${variant}.svg`;
      const from = path.join(options.packagesDir, 'devicon/icons', entry.name, fileName);
      const svg = existsSync(from) ? readFileSync(from, 'utf8') : '';
      if (svg.length > 0 && svg.length <= MAX_LOGO_BYTES && isSelfContainedSvg(svg)) {
        copyFileSync(from, path.join(logosDir, 'devicon', fileName));
        lines.push(logoLine(record, `devicon/${fileName}`, 'devicon'));
        deviconCount += 1;
      }
    }
  }
  return lines.sort((a, b) => a.serial.localeCompare(b.serial));
}

function main(): void {
  const options = optionsFrom(process.argv.slice(2));
  const known = readKnownBrandClasses();
  const brands = collectBrands(options);
  const records = brands.map((brand, index) => ({
    serial: sampleSerial(index + 1),
    mark: brand.mark,
    nice: niceClassesOf(brand, known),
    brand,
  }));

  const lines = records.map((record): MarkJsonlLine => {
    const line: MarkJsonlLine = {
      serial: record.serial,
      mark: record.mark,
      nice: record.nice,
      is_live: true,
      drawing_kind: 'word',
    };
    const checked = markJsonlLineSchema.safeParse(line);
    if (!checked.success) throw new Error(`${record.serial} ${record.mark}: ${checked.error.message}`);
    return line;
  });
  const licencesDir = path.join(options.outDir, 'licenses');
  mkdirSync(licencesDir, { recursive: true });
  copyFileSync(path.join(options.brandListDir, 'LICENSE'), path.join(licencesDir, 'amazon-brand-list.LICENSE'));
  copyFileSync(
    path.join(options.packagesDir, 'simple-icons/LICENSE.md'),
    path.join(licencesDir, 'simple-icons.LICENSE.md'),
  );
  copyFileSync(path.join(options.packagesDir, 'devicon/LICENSE'), path.join(licencesDir, 'devicon.LICENSE'));
  writeFileSync(
    path.join(options.outDir, 'us-marks.jsonl'),
    `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
  );

  const logos = copyLogos(records, options);
  writeFileSync(
    path.join(options.outDir, 'logos/logos.jsonl'),
    `${logos.map((logo) => JSON.stringify(logo)).join('\n')}\n`,
  );

  const bySource = new Map<string, number>();
  for (const brand of brands) {
    const first = [...brand.sources][0] ?? 'unknown';
    bySource.set(first, (bySource.get(first) ?? 0) + 1);
  }
  const withClasses = records.filter((record) => record.nice.length > 0);
  const summary = {
    records: records.length,
    firstSource: Object.fromEntries(bySource),
    withNiceClasses: withClasses.length,
    fromHandTable: records.filter((record) => known.has(record.brand.key)).length,
    software: records.filter((record) => !known.has(record.brand.key) && record.brand.software).length,
    fromNameWords: withClasses.filter((record) => !known.has(record.brand.key) && !record.brand.software).length,
    logos: {
      total: logos.length,
      simpleIcons: logos.filter((logo) => logo.source === 'simple-icons').length,
      devicon: logos.filter((logo) => logo.source === 'devicon').length,
    },
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

if (require.main === module) main();
