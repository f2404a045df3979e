/**
 * Synthetic USPTO "Trademark Applications Daily XML" for scale tests and benchmarks:
 *   npx tsx builders/synthetic-uspto.ts --records N [--out path] [--seed S] [--dead-share 0.2] [--gzip]
 *     [--pending-share 0.4] [--date YYYYMMDD]   (default out: .local/synthetic/synthetic-uspto-N.xml[.gz])
 *
 * Input: the number of case-files, a seed and the share of dead marks.
 * Output: one daily XML file with the real sample's structure (data/uspto/daily-xml-sample/seed.xml: its DTD,
 * root, file-segments/action-keys grouping, case-file-header flags, statements, event history, classifications,
 * correspondent, owners, now and then a Madrid filing record), so parsers and ingest meet realistic files.
 * Steps:
 *   1. write the sample's prologue (XML declaration and DTD) and the root's header elements;
 *   2. for each record draw a status (registered, pending or dead, codes from data/uspto/code-tables), a mark text,
 *      Nice classes, dates, owners and events from a seeded generator, and append the case-file;
 *   3. hand the text to the sink in chunks of about 64 KiB, waiting for 'drain' whenever the sink asks to, so memory
 *      stays flat whatever N is.
 * Records cannot be mistaken for real ones: serials start at 60000000 (series codes 60-69 have never been trademark
 * series; USPTO trademark serials begin with 70 to 99) and every owner name starts with "SYNTHETIC".
 * The same seed and options always give the same bytes.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { usptoStatusOf } from '../shared/marks/uspto-status';

const DATA_DIR = path.resolve(__dirname, '../data/uspto');

export const SYNTHETIC_FIRST_SERIAL = 60_000_000;
/** Series 60 to 69: ten million serials that no real daily file uses. */
export const SYNTHETIC_MAX_RECORDS = 10_000_000;
export const SYNTHETIC_OWNER_MARKER = 'SYNTHETIC';

export interface SyntheticDailyXmlOptions {
  records: number;
  seed?: number;
  /** Share of dead marks (abandoned, cancelled, expired), 0 to 1. */
  deadShare?: number;
  /** Share of pending applications among the marks that are not dead, 0 to 1. */
  pendingShare?: number;
  /** The file's transaction date, YYYYMMDD. Fixed by default so output does not depend on the clock. */
  transactionDate?: string;
}

export interface SyntheticDailyXmlSummary {
  records: number;
  registered: number;
  pending: number;
  dead: number;
  firstSerial: string;
  lastSerial: string;
  chars: number;
}

const CHUNK_CHARS = 64 * 1024;
const CASE_FILES_PER_ACTION_KEY = 1000;
const ACTION_KEYS = ['TX', 'IB'];

/** mulberry32: small, fast and good enough to make varied, reproducible records (and perturbations). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Draw {
  random: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(values: readonly T[]) => T;
  chance: (probability: number) => boolean;
}

function drawFrom(random: () => number): Draw {
  const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
  return {
    random,
    int,
    pick: <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T,
    chance: (probability) => random() < probability,
  };
}

type Lifecycle = 'registered' | 'pending' | 'dead';

/** Status codes of each lifecycle, read from the shipped USPTO table so every code the file uses is a known one. */
function statusCodesByLifecycle(): Record<Lifecycle, { common: string[]; all: string[] }> {
  const rows = parse(readFileSync(path.join(DATA_DIR, 'code-tables/status_codes.csv'), 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    trim: true,
  }) as { code: string }[];
  const all: Record<Lifecycle, string[]> = { registered: [], pending: [], dead: [] };
  for (const { code } of rows) {
    const category = usptoStatusOf(code)?.category;
    if (category === 'registered' || category === 'pending' || category === 'dead') all[category].push(code);
  }
  // The codes most files are full of; drawn half of the time so the mix looks like a real day.
  const preferred: Record<Lifecycle, string[]> = {
    registered: ['700', '800', '702', '701'],
    pending: ['630', '641', '661', '686', '688', '681'],
    dead: ['602', '606', '710', '900', '601'],
  };
  const result = {} as Record<Lifecycle, { common: string[]; all: string[] }>;
  for (const lifecycle of ['registered', 'pending', 'dead'] as const) {
    if (all[lifecycle].length === 0) throw new Error(`status_codes.csv has no ${lifecycle} code`);
    const common = preferred[lifecycle].filter((code) => all[lifecycle].includes(code));
    result[lifecycle] = { common: common.length > 0 ? common : all[lifecycle], all: all[lifecycle] };
  }
  return result;
}

/** The real sample's XML declaration and DTD, so a synthetic file is read exactly like a real one. */
function prologue(): string {
  const seed = readFileSync(path.join(DATA_DIR, 'daily-xml-sample/seed.xml'), 'utf8');
  const end = seed.indexOf(']>');
  if (!seed.startsWith('<?xml') || end === -1) throw new Error('seed.xml: no XML declaration and DTD to copy');
  return `${seed.slice(0, end + 2)}\n`;
}

const WORDS = [
  'NORTH', 'PEAK', 'ORBIT', 'SUMMIT', 'RIVER', 'STONE', 'EMBER', 'CEDAR', 'HARBOR', 'NOVA', 'PIXEL', 'VELVET',
  'COBALT', 'AMBER', 'FALCON', 'LOTUS', 'MAPLE', 'ZEPHYR', 'ATLAS', 'BLOOM', 'CRAFT', 'DRIFT', 'ECHO', 'FORGE',
  'GROVE', 'HAVEN', 'IRON', 'JADE', 'KITE', 'LUMEN', 'MESA', 'NEST', 'OAK', 'PRISM', 'QUILL', 'RIDGE', 'SAGE',
  'TIDE', 'UMBRA', 'VISTA', 'WILLOW', 'YONDER', 'ZENITH', 'BRIGHT', 'SWIFT', 'TRUE', 'WILD', 'PURE', 'BOLD',
  'URBAN', 'GOLDEN', 'SILVER', 'BLUE', 'RED', 'GREEN', 'LITTLE', 'GRAND', 'SMART', 'HAPPY', 'LUCKY', 'ROYAL',
  'STAR', 'MOON', 'SUN', 'CLOUD', 'WAVE', 'LEAF', 'ROOT', 'TRAIL', 'COAST', 'VALLEY', 'FIELD', 'BAY', 'LABS',
  'WORKS', 'HOME', 'KIDS', 'PETS', 'GEAR', 'GOODS', 'SUPPLY', 'STUDIO', 'KITCHEN', 'BEAUTY', 'FIT', 'TECH',
];
const SYLLABLES = [
  'ra', 'zo', 'vi', 'ka', 'lu', 'mi', 'ne', 'to', 'xa', 'qui', 'be', 'do', 'fi', 'go', 'ha', 'jo', 'ly', 'pe',
  'su', 'ti', 'va', 'wo', 'yu', 'ze', 'ori', 'ela', 'ion', 'ax', 'ex', 'on', 'ar', 'is', 'um', 'ik',
];

/** Nice classes weighted roughly like a real year of filings (9, 35, 25, 41, 42 lead). */
const WEIGHTED_CLASSES = [
  9, 9, 9, 9, 35, 35, 35, 35, 25, 25, 25, 41, 41, 41, 42, 42, 42, 3, 3, 5, 5, 18, 18, 28, 28, 30, 30, 43, 43, 44,
  16, 21, 20, 11, 7, 12, 14, 29, 32, 33, 36, 45, 10, 8, 6, 1, 4, 2, 13, 15, 17, 19, 22, 23, 24, 26, 27, 31, 34,
  37, 38, 39, 40,
];
const GOODS: Readonly<Record<number, string>> = {
  3: 'Cosmetics; skin care preparations, namely, creams, lotions and serums; soaps; shampoos',
  5: 'Dietary supplements; vitamin preparations; medicated skin care preparations',
  7: 'Electric food blenders; vacuum cleaners; power-operated tools, namely, drills and saws',
  8: 'Hand tools; knives; scissors; manicure sets',
  9: 'Downloadable mobile application software; wireless earphones; protective cases for smartphones; chargers',
  11: 'LED lighting fixtures; electric kettles; air purifiers',
  12: 'Bicycles; electric scooters; automobile seat covers',
  14: 'Jewelry; watches; key rings of precious metal',
  16: 'Printed notebooks; stationery; stickers; paper bags',
  18: 'Backpacks; handbags; wallets; leashes for animals',
  20: 'Furniture; pillows; storage racks',
  21: 'Insulated drinking bottles; cookware; household containers; toothbrushes',
  25: 'Clothing, namely, shirts, t-shirts, sweatshirts, pants and jackets; footwear; headwear',
  28: 'Toys, namely, building blocks and plush toys; fishing tackle; yoga mats; golf balls',
  30: 'Coffee; tea; chocolate; cookies; sauces',
  35: 'Online retail store services featuring clothing, cosmetics and household goods; advertising services',
  41: 'Educational services, namely, conducting online classes; entertainment services, namely, podcasts',
  42: 'Software as a service (SAAS) services featuring software for managing online stores; design of websites',
  43: 'Restaurant and cafe services; catering services',
  44: 'Beauty salon services; veterinary services',
};
const GENERIC_GOODS = 'Goods and services in this class, namely, products sold under the mark';

const EVENTS_APPLICATION: readonly (readonly [string, string, string])[] = [
  ['NWAP', 'I', 'NEW APPLICATION ENTERED IN TRAM'],
  ['NWOS', 'I', 'NEW APPLICATION OFFICE SUPPLIED DATA ENTERED IN TRAM'],
  ['DOCK', 'D', 'ASSIGNED TO EXAMINER'],
  ['CNRT', 'R', 'NON-FINAL ACTION  WRITTEN'],
  ['GNRT', 'F', 'NON-FINAL ACTION E-MAILED'],
  ['GNRN', 'O', 'NOTIFICATION OF NON-FINAL ACTION E-MAILED'],
  ['TROA', 'I', 'TEAS RESPONSE TO OFFICE ACTION RECEIVED'],
  ['CRFA', 'I', 'CORRESPONDENCE RECEIVED IN LAW OFFICE'],
  ['TEME', 'I', 'TEAS/EMAIL CORRESPONDENCE ENTERED'],
  ['CNSA', 'P', 'APPROVED FOR PUB - PRINCIPAL REGISTER'],
  ['NONP', 'E', 'NOTIFICATION OF NOTICE OF PUBLICATION E-MAILED'],
  ['PUBO', 'A', 'PUBLISHED FOR OPPOSITION'],
  ['NPUB', 'E', 'OFFICIAL GAZETTE PUBLICATION CONFIRMATION E-MAILED'],
];
const EVENTS_REGISTRATION: readonly (readonly [string, string, string])[] = [
  ['R.PR', 'A', 'REGISTERED-PRINCIPAL REGISTER'],
  ['E89R', 'I', 'TEAS SECTION 8 &amp; 9 RECEIVED'],
  ['89AG', 'O', 'REGISTERED - SEC. 8 (10-YR) ACCEPTED/SEC. 9 GRANTED'],
  ['E15R', 'I', 'TEAS SECTION 15 RECEIVED'],
  ['15AK', 'O', 'REGISTERED - SEC. 15 ACKNOWLEDGED'],
  ['ASGN', 'I', 'AUTOMATIC UPDATE OF ASSIGNMENT OF OWNERSHIP'],
  ['ARAA', 'I', 'ATTORNEY/DOM.REP.REVOKED AND/OR APPOINTED'],
  ['REAP', 'I', 'TEAS REVOKE/APP/CHANGE ADDR OF ATTY/DOM REP RECEIVED'],
  ['TCCA', 'I', 'TEAS CHANGE OF CORRESPONDENCE RECEIVED'],
  ['COAR', 'I', 'TEAS CHANGE OF OWNER ADDRESS RECEIVED'],
  ['REM2', 'E', 'COURTESY REMINDER - SEC. 8 (10-YR)/SEC. 9 E-MAILED'],
  ['NA89', 'E', 'NOTICE OF ACCEPTANCE OF SEC. 8 &amp; 9 - E-MAILED'],
];
const EVENTS_DEAD_APPLICATION: readonly (readonly [string, string, string])[] = [
  ['ABN2', 'S', 'ABANDONMENT - FAILURE TO RESPOND OR LATE RESPONSE'],
  ['MAB2', 'E', 'ABANDONMENT NOTICE E-MAILED - FAILURE TO RESPOND'],
];
const EVENT_DEAD_REGISTRATION = ['CAEX', 'O', 'CANCELLED SEC. 8 (10-YR)/EXPIRED SECTION 9'] as const;

const HEADER_FLAGS = [
  'principal-register-amended-in', 'supplemental-register-amended-in', 'trademark-in', 'collective-trademark-in',
  'service-mark-in', 'collective-service-mark-in', 'collective-membership-mark-in', 'certification-mark-in',
  'cancellation-pending-in', 'published-concurrent-in', 'concurrent-use-in', 'concurrent-use-proceeding-in',
  'interference-pending-in', 'opposition-pending-in', 'section-12c-in', 'section-2f-in', 'section-2f-in-part-in',
  'renewal-filed-in', 'section-8-filed-in', 'section-8-partial-accept-in', 'section-8-accepted-in',
  'section-15-acknowledged-in', 'section-15-filed-in', 'supplemental-register-in', 'foreign-priority-in',
  'change-registration-in', 'intent-to-use-in', 'intent-to-use-current-in', 'filed-as-use-application-in',
  'amended-to-use-application-in', 'use-application-currently-in', 'amended-to-itu-application-in',
  'filing-basis-filed-as-44d-in', 'amended-to-44d-application-in', 'filing-basis-current-44d-in',
  'filing-basis-filed-as-44e-in', 'filing-basis-current-44e-in', 'amended-to-44e-application-in',
  'without-basis-currently-in', 'filing-current-no-basis-in', 'color-drawing-filed-in', 'color-drawing-current-in',
  'drawing-3d-filed-in', 'drawing-3d-current-in', 'standard-characters-claimed-in', 'filing-basis-filed-as-66a-in',
  'filing-basis-current-66a-in',
] as const;
type HeaderFlag = (typeof HEADER_FLAGS)[number];

const CITIES = [
  ['NEW YORK', 'NY', '10004'], ['LOS ANGELES', 'CA', '90012'], ['CHICAGO', 'IL', '60601'], ['AUSTIN', 'TX', '78701'],
  ['SEATTLE', 'WA', '98101'], ['MIAMI', 'FL', '33131'], ['DENVER', 'CO', '80202'], ['BOSTON', 'MA', '02108'],
] as const;
const FOREIGN = [
  ['SHENZHEN', 'CN', '518000'], ['GUANGZHOU', 'CN', '510000'], ['YIWU', 'CN', '322000'], ['TORONTO', 'CA', 'M5H 2N2'],
  ['LONDON', 'GB', 'EC1A 1BB'], ['BERLIN', 'DE', '10115'],
] as const;
const ENTITY_SUFFIXES = [
  ['LLC', '16'], ['INC.', '03'], ['CORPORATION', '03'], ['CO., LTD.', '99'], ['GMBH', '99'], ['LIMITED', '99'],
] as const;
function entityTypeOf(ownerName: string): string {
  return ENTITY_SUFFIXES.find(([suffix]) => ownerName.endsWith(suffix))?.[1] ?? '03';
}
const ATTORNEYS = ['Jordan A. Sample', 'Casey Example', 'Morgan Placeholder', 'Riley Testcase', 'Avery Fixture'];
const LOCATIONS = [
  'INTENT TO USE SECTION',
  'PUBLICATION AND ISSUE SECTION',
  'TMO LAW OFFICE 101 - EXAMINING ATTORNEY ASSIGNED',
  'GENERIC WEB UPDATE',
  'POST REGISTRATION',
];

const DAY_MS = 86_400_000;

function dayOf(yyyymmdd: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  if (!match) throw new Error(`transaction date "${yyyymmdd}" is not YYYYMMDD`);
  const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
  if (new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '') !== yyyymmdd) {
    throw new Error(`transaction date "${yyyymmdd}" is not a calendar date`);
  }
  return day;
}

/** Dates fall within about 40 years of the transaction date, so this cache stays at a few thousand entries. */
const formattedDays = new Map<number, string>();

function yyyymmdd(day: number): string {
  let formatted = formattedDays.get(day);
  if (formatted === undefined) {
    const iso = new Date(day * DAY_MS).toISOString();
    formatted = iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10);
    if (formattedDays.size < 50_000) formattedDays.set(day, formatted);
  }
  return formatted;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function coinedWord(draw: Draw): string {
  let word = '';
  const syllables = draw.int(2, 3);
  for (let index = 0; index < syllables; index += 1) word += draw.pick(SYLLABLES);
  return word.toUpperCase();
}

function markText(draw: Draw): string {
  const shape = draw.random();
  if (shape < 0.4) return coinedWord(draw);
  if (shape < 0.75) return `${draw.pick(WORDS)} ${draw.chance(0.5) ? draw.pick(WORDS) : coinedWord(draw)}`;
  if (shape < 0.97) return `${draw.pick(WORDS)} ${draw.pick(WORDS)} ${draw.pick(WORDS)}`;
  return `${draw.pick(WORDS)} & ${draw.pick(WORDS)}`;
}

function niceClasses(draw: Draw): number[] {
  const count = draw.chance(0.7) ? 1 : draw.chance(0.7) ? draw.int(2, 3) : draw.int(4, 8);
  const classes = new Set<number>();
  while (classes.size < count) classes.add(draw.pick(WEIGHTED_CLASSES));
  return [...classes].sort((a, b) => a - b);
}

const pad3 = (value: number): string => String(value).padStart(3, '0');

interface CaseFileContext {
  draw: Draw;
  statusCodes: Record<Lifecycle, { common: string[]; all: string[] }>;
  transactionDay: number;
}

function statusCodeFor(lifecycle: Lifecycle, context: CaseFileContext): string {
  const codes = context.statusCodes[lifecycle];
  return context.draw.chance(0.5) ? context.draw.pick(codes.common) : context.draw.pick(codes.all);
}

/** One <case-file>, indented like the real file (its parent <action-keys> sits at six spaces). */
function caseFileXml(serial: number, lifecycle: Lifecycle, context: CaseFileContext): string {
  const { draw, transactionDay } = context;
  const statusCode = statusCodeFor(lifecycle, context);
  // Dead marks are either abandoned applications or cancelled/expired registrations: the code says which.
  const cancelledOrExpired = statusCode.startsWith('7') || statusCode.startsWith('9') || statusCode === '626';
  const everRegistered = lifecycle === 'registered' || (lifecycle === 'dead' && cancelledOrExpired);
  const filingDay =
    lifecycle === 'pending' ? transactionDay - draw.int(20, 900) : transactionDay - draw.int(700, everRegistered ? 12_000 : 6_000);
  const registrationDay = everRegistered ? filingDay + draw.int(250, 700) : undefined;
  const statusDay = Math.min(transactionDay, (registrationDay ?? filingDay) + draw.int(30, 3_000));
  const classes = niceClasses(draw);
  const drawingRoll = draw.random();
  const drawingCode = drawingRoll < 0.03 ? '2000' : drawingRoll < 0.18 ? '3000' : drawingRoll < 0.3 ? '5000' : '4000';
  const mark = drawingCode === '2000' ? undefined : markText(draw);
  const intentToUse = !everRegistered && draw.chance(0.45);
  const serviceMark = classes.some((niceClass) => niceClass >= 35);
  const registrationNumber = everRegistered ? String(draw.int(1_000_000, 7_999_999)).padStart(7, '0') : '0000000';
  const foreign = draw.chance(0.35);
  const [city, region, postcode] = foreign ? draw.pick(FOREIGN) : draw.pick(CITIES);
  const attorney = draw.pick(ATTORNEYS);

  const flags = new Set<HeaderFlag>();
  if (!serviceMark || classes.some((niceClass) => niceClass < 35)) flags.add('trademark-in');
  if (serviceMark) flags.add('service-mark-in');
  if (intentToUse) {
    flags.add('intent-to-use-in');
    flags.add('intent-to-use-current-in');
  } else {
    flags.add('filed-as-use-application-in');
    flags.add('use-application-currently-in');
  }
  if (drawingCode === '4000') flags.add('standard-characters-claimed-in');
  if (drawingCode !== '4000' && draw.chance(0.3)) {
    flags.add('color-drawing-filed-in');
    flags.add('color-drawing-current-in');
  }
  if (everRegistered && draw.chance(0.5)) {
    flags.add('section-8-accepted-in');
    flags.add('section-15-acknowledged-in');
  }
  if (foreign && draw.chance(0.2)) flags.add('foreign-priority-in');

  const out: string[] = [];
  out.push(
    '        <case-file>\n',
    `          <serial-number>${serial}</serial-number>\n`,
    `          <registration-number>${registrationNumber}</registration-number>\n`,
    `          <transaction-date>${yyyymmdd(transactionDay)}</transaction-date>\n`,
    '          <case-file-header>\n',
    `            <filing-date>${yyyymmdd(filingDay)}</filing-date>\n`,
  );
  if (registrationDay !== undefined) out.push(`            <registration-date>${yyyymmdd(registrationDay)}</registration-date>\n`);
  out.push(
    `            <status-code>${statusCode}</status-code>\n`,
    `            <status-date>${yyyymmdd(statusDay)}</status-date>\n`,
  );
  if (mark !== undefined) out.push(`            <mark-identification>${escapeXml(mark)}</mark-identification>\n`);
  out.push(`            <mark-drawing-code>${drawingCode}</mark-drawing-code>\n`);
  if (lifecycle !== 'pending' || draw.chance(0.3)) {
    out.push(`            <published-for-opposition-date>${yyyymmdd(filingDay + draw.int(120, 240))}</published-for-opposition-date>\n`);
  }
  if (draw.chance(0.8)) out.push(`            <attorney-docket-number>SYN-${serial % 100_000}</attorney-docket-number>\n`);
  out.push(`            <attorney-name>${attorney}</attorney-name>\n`);
  for (const flag of HEADER_FLAGS) out.push(`            <${flag}>${flags.has(flag) ? 'T' : 'F'}</${flag}>\n`);
  if (everRegistered && registrationDay !== undefined && transactionDay - registrationDay > 3_650) {
    out.push(`            <renewal-date>${yyyymmdd(registrationDay + 3_652)}</renewal-date>\n`);
  }
  out.push(
    `            <law-office-assigned-location-code>M${draw.int(10, 99)}</law-office-assigned-location-code>\n`,
    `            <current-location>${draw.pick(LOCATIONS)}</current-location>\n`,
    `            <location-date>${yyyymmdd(statusDay)}</location-date>\n`,
    '          </case-file-header>\n',
    '          <case-file-statements>\n',
  );
  for (const niceClass of classes) {
    out.push(
      '            <case-file-statement>\n',
      `              <type-code>GS${pad3(niceClass)}1</type-code>\n`,
      `              <text>${GOODS[niceClass] ?? GENERIC_GOODS}</text>\n`,
      '            </case-file-statement>\n',
    );
  }
  if (mark !== undefined && draw.chance(0.25)) {
    out.push(
      '            <case-file-statement>\n',
      '              <type-code>PM0001</type-code>\n',
      `              <text>${escapeXml(mark.replace(/X/g, 'KS'))}</text>\n`,
      '            </case-file-statement>\n',
    );
  }
  if (drawingCode !== '4000') {
    out.push(
      '            <case-file-statement>\n',
      '              <type-code>DM0000</type-code>\n',
      `              <text>The mark consists of ${mark === undefined ? 'a design' : 'stylized wording and a design'}.</text>\n`,
      '            </case-file-statement>\n',
      '            <case-file-statement>\n',
      '              <type-code>CC0000</type-code>\n',
      '              <text>Color is not claimed as a feature of the mark.</text>\n',
      '            </case-file-statement>\n',
    );
  }
  out.push('          </case-file-statements>\n', '          <case-file-event-statements>\n');

  const events: (readonly [string, string, string])[] = [];
  const applicationSteps = lifecycle === 'pending' ? draw.int(2, EVENTS_APPLICATION.length) : EVENTS_APPLICATION.length;
  events.push(...EVENTS_APPLICATION.slice(0, applicationSteps));
  if (everRegistered) {
    events.push(EVENTS_REGISTRATION[0] as readonly [string, string, string]);
    const later = draw.int(0, 10);
    for (let index = 0; index < later; index += 1) events.push(draw.pick(EVENTS_REGISTRATION.slice(1)));
  }
  if (lifecycle === 'dead') {
    if (everRegistered) events.push(EVENT_DEAD_REGISTRATION);
    else events.push(...EVENTS_DEAD_APPLICATION);
  }
  // Newest first with the highest number, as in the real file; dates run from filing to the status date.
  const span = Math.max(1, statusDay - filingDay);
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const [code, type, description] = events[index] as readonly [string, string, string];
    const day = filingDay + Math.floor((span * (index + 1)) / events.length);
    out.push(
      '            <case-file-event-statement>\n',
      `              <code>${code}</code>\n`,
      `              <type>${type}</type>\n`,
      `              <description-text>${description}</description-text>\n`,
      `              <date>${yyyymmdd(day)}</date>\n`,
      `              <number>${index + 1}</number>\n`,
      '            </case-file-event-statement>\n',
    );
  }
  out.push('          </case-file-event-statements>\n', '          <classifications>\n');
  for (const niceClass of classes) {
    const usCodes = [pad3(draw.int(1, 52)), ...(draw.chance(0.5) ? [pad3(draw.int(100, 107))] : [])];
    const firstUse = intentToUse ? '0' : yyyymmdd(filingDay - draw.int(30, 2_000));
    out.push(
      '            <classification>\n',
      '              <international-code-total-no>1</international-code-total-no>\n',
      `              <us-code-total-no>${usCodes.length}</us-code-total-no>\n`,
      `              <international-code>${pad3(niceClass)}</international-code>\n`,
    );
    for (const usCode of usCodes) out.push(`              <us-code>${usCode}</us-code>\n`);
    out.push(
      '              <status-code>6</status-code>\n',
      `              <status-date>${yyyymmdd(filingDay + 1)}</status-date>\n`,
      `              <first-use-anywhere-date>${firstUse}</first-use-anywhere-date>\n`,
      `              <first-use-in-commerce-date>${firstUse}</first-use-in-commerce-date>\n`,
      `              <primary-code>${pad3(niceClass)}</primary-code>\n`,
      '            </classification>\n',
    );
  }
  out.push(
    '          </classifications>\n',
    '          <correspondent>\n',
    `            <address-1>${attorney.toUpperCase()}</address-1>\n`,
    '            <address-2>SYNTHETIC LAW OFFICE</address-2>\n',
    `            <address-3>${draw.int(1, 9999)} EXAMPLE AVENUE</address-3>\n`,
    `            <address-4>${city}, ${region} ${postcode}</address-4>\n`,
    '          </correspondent>\n',
    '          <case-file-owners>\n',
  );
  const ownerName = (): string => {
    const [suffix] = draw.pick(ENTITY_SUFFIXES);
    return `${SYNTHETIC_OWNER_MARKER} ${draw.pick(WORDS)} ${draw.pick(WORDS)} ${suffix}`;
  };
  const partyTypes = everRegistered ? (draw.chance(0.3) ? [30, 20, 10] : [30, 10]) : draw.chance(0.4) ? [20, 10] : [10];
  if (everRegistered && draw.chance(0.15)) partyTypes.unshift(40 + draw.int(1, 5));
  const applicant = ownerName();
  partyTypes.forEach((partyType, index) => {
    const name = index === 0 && partyTypes.length > 2 && partyType >= 40 ? ownerName() : applicant;
    out.push(
      '            <case-file-owner>\n',
      '              <entry-number>1</entry-number>\n',
      `              <party-type>${partyType}</party-type>\n`,
      '              <nationality>\n',
      foreign ? `                <country>${region}</country>\n` : `                <state>${region}</state>\n`,
      '              </nationality>\n',
      `              <legal-entity-type-code>${entityTypeOf(name)}</legal-entity-type-code>\n`,
      `              <party-name>${escapeXml(name)}</party-name>\n`,
      `              <address-1>${(serial % 900) + 100} SAMPLE STREET</address-1>\n`,
      `              <city>${city}</city>\n`,
      foreign ? `              <country>${region}</country>\n` : `              <state>${region}</state>\n`,
      `              <postcode>${postcode}</postcode>\n`,
      '            </case-file-owner>\n',
    );
  });
  out.push('          </case-file-owners>\n');
  if (draw.chance(0.02)) {
    out.push(
      '          <madrid-international-filing-requests>\n',
      '            <madrid-international-filing-record>\n',
      '              <entry-number>1</entry-number>\n',
      `              <reference-number>S${String(serial % 10_000_000).padStart(7, '0')}</reference-number>\n`,
      `              <original-filing-date-uspto>${yyyymmdd(transactionDay)}</original-filing-date-uspto>\n`,
      '              <international-status-code>401</international-status-code>\n',
      `              <international-status-date>${yyyymmdd(transactionDay)}</international-status-date>\n`,
      '              <madrid-history-events>\n',
      '                <madrid-history-event>\n',
      '                  <code>NEWAP</code>\n',
      `                  <date>${yyyymmdd(transactionDay)}</date>\n`,
      '                  <description-text>NEW APPLICATION FOR IR RECEIVED</description-text>\n',
      '                  <entry-number>1</entry-number>\n',
      '                </madrid-history-event>\n',
      '              </madrid-history-events>\n',
      '            </madrid-international-filing-record>\n',
      '          </madrid-international-filing-requests>\n',
    );
  }
  out.push('        </case-file>\n');
  return out.join('');
}

function validated(options: SyntheticDailyXmlOptions): Required<SyntheticDailyXmlOptions> {
  const { records, seed = 1, deadShare = 0.2, pendingShare = 0.4, transactionDate = '20250102' } = options;
  if (!Number.isInteger(records) || records < 0 || records > SYNTHETIC_MAX_RECORDS) {
    throw new RangeError(`records must be an integer from 0 to ${SYNTHETIC_MAX_RECORDS}`);
  }
  if (!Number.isInteger(seed)) throw new RangeError('seed must be an integer');
  for (const [name, share] of [['deadShare', deadShare], ['pendingShare', pendingShare]] as const) {
    if (!(share >= 0 && share <= 1)) throw new RangeError(`${name} must be between 0 and 1`);
  }
  dayOf(transactionDate);
  return { records, seed, deadShare, pendingShare, transactionDate };
}

/**
 * Writes a whole daily XML document to the sink (the sink is not ended: the caller owns it). Waits for 'drain'
 * whenever the sink's buffer is full, and rejects if the sink fails.
 */
export async function writeSyntheticDailyXml(
  sink: Writable,
  options: SyntheticDailyXmlOptions,
): Promise<SyntheticDailyXmlSummary> {
  const { records, seed, deadShare, pendingShare, transactionDate } = validated(options);
  const draw = drawFrom(seededRandom(seed));
  const context: CaseFileContext = { draw, statusCodes: statusCodesByLifecycle(), transactionDay: dayOf(transactionDate) };
  const summary: SyntheticDailyXmlSummary = {
    records,
    registered: 0,
    pending: 0,
    dead: 0,
    firstSerial: String(SYNTHETIC_FIRST_SERIAL),
    lastSerial: String(SYNTHETIC_FIRST_SERIAL + Math.max(records, 1) - 1),
    chars: 0,
  };

  let buffer = '';
  const flush = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const chunk = buffer;
    buffer = '';
    summary.chars += chunk.length;
    if (!sink.write(chunk)) await once(sink, 'drain');
  };
  const append = async (text: string): Promise<void> => {
    buffer += text;
    if (buffer.length >= CHUNK_CHARS) await flush();
  };

  await append(prologue());
  await append(
    '<trademark-applications-daily>\n  <version>\n    <version-no>2.0</version-no>\n' +
      '    <version-date>20041108</version-date>\n  </version>\n' +
      `  <creation-datetime>${transactionDate}2208</creation-datetime>\n` +
      '  <application-information>\n    <file-segments>\n      <file-segment>TRMK</file-segment>\n',
  );
  for (let index = 0; index < records; index += 1) {
    if (index % CASE_FILES_PER_ACTION_KEY === 0) {
      if (index > 0) await append('      </action-keys>\n');
      const actionKey = ACTION_KEYS[(index / CASE_FILES_PER_ACTION_KEY) % ACTION_KEYS.length] ?? 'TX';
      await append(`      <action-keys>\n        <action-key>${actionKey}</action-key>\n`);
    }
    const roll = draw.random();
    const lifecycle: Lifecycle = roll < deadShare ? 'dead' : draw.random() < pendingShare ? 'pending' : 'registered';
    summary[lifecycle] += 1;
    await append(caseFileXml(SYNTHETIC_FIRST_SERIAL + index, lifecycle, context));
  }
  if (records > 0) await append('      </action-keys>\n');
  await append('    </file-segments>\n  </application-information>\n</trademark-applications-daily>\n');
  await flush();
  return summary;
}

interface CliOptions extends SyntheticDailyXmlOptions {
  out: string;
  gzip: boolean;
}

function cliOptions(argv: readonly string[]): CliOptions {
  const valueOf = (flag: string): string | undefined => {
    const index = argv.indexOf(flag);
    if (index === -1) return undefined;
    const value = argv[index + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    return value;
  };
  const numberOf = (flag: string): number | undefined => {
    const value = valueOf(flag);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) throw new Error(`${flag} must be a number, got "${value}"`);
    return parsed;
  };
  const records = numberOf('--records');
  if (records === undefined) throw new Error('--records N is required');
  const gzip = argv.includes('--gzip');
  const defaultOut = path.join('.local', 'synthetic', `synthetic-uspto-${records}.xml${gzip ? '.gz' : ''}`);
  return {
    records,
    seed: numberOf('--seed'),
    deadShare: numberOf('--dead-share'),
    pendingShare: numberOf('--pending-share'),
    transactionDate: valueOf('--date'),
    out: valueOf('--out') ?? defaultOut,
    gzip,
  };
}

async function main(): Promise<void> {
  const options = cliOptions(process.argv.slice(2));
  mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
  const file = createWriteStream(options.out);
  const gzip = options.gzip ? createGzip() : undefined;
  if (gzip) gzip.pipe(file);
  const sink: Writable = gzip ?? file;
  const started = process.hrtime.bigint();
  const summary = await writeSyntheticDailyXml(sink, options);
  sink.end();
  await finished(file);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `${JSON.stringify({
      ...summary,
      out: options.out,
      seconds: Number(seconds.toFixed(2)),
      recordsPerSecond: Math.round(summary.records / seconds),
      peakRssMb: Math.round(peakRssMb),
    })}\n`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`synthetic-uspto: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
