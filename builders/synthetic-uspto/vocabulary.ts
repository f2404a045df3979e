/** The words, goods, events, header flags, places and names that synthetic case-files are made of. */

/** Every owner name starts with it, so a synthetic record cannot be taken for a real one. */
export const SYNTHETIC_OWNER_MARKER = 'SYNTHETIC';

export const WORDS = [
  'NORTH', 'PEAK', 'ORBIT', 'SUMMIT', 'RIVER', 'STONE', 'EMBER', 'CEDAR', 'HARBOR', 'NOVA', 'PIXEL', 'VELVET',
  'COBALT', 'AMBER', 'FALCON', 'LOTUS', 'MAPLE', 'ZEPHYR', 'ATLAS', 'BLOOM', 'CRAFT', 'DRIFT', 'ECHO', 'FORGE',
  'GROVE', 'HAVEN', 'IRON', 'JADE', 'KITE', 'LUMEN', 'MESA', 'NEST', 'OAK', 'PRISM', 'QUILL', 'RIDGE', 'SAGE',
  'TIDE', 'UMBRA', 'VISTA', 'WILLOW', 'YONDER', 'ZENITH', 'BRIGHT', 'SWIFT', 'TRUE', 'WILD', 'PURE', 'BOLD',
  'URBAN', 'GOLDEN', 'SILVER', 'BLUE', 'RED', 'GREEN', 'LITTLE', 'GRAND', 'SMART', 'HAPPY', 'LUCKY', 'ROYAL',
  'STAR', 'MOON', 'SUN', 'CLOUD', 'WAVE', 'LEAF', 'ROOT', 'TRAIL', 'COAST', 'VALLEY', 'FIELD', 'BAY', 'LABS',
  'WORKS', 'HOME', 'KIDS', 'PETS', 'GEAR', 'GOODS', 'SUPPLY', 'STUDIO', 'KITCHEN', 'BEAUTY', 'FIT', 'TECH',
];
export const SYLLABLES = [
  'ra', 'zo', 'vi', 'ka', 'lu', 'mi', 'ne', 'to', 'xa', 'qui', 'be', 'do', 'fi', 'go', 'ha', 'jo', 'ly', 'pe',
  'su', 'ti', 'va', 'wo', 'yu', 'ze', 'ori', 'ela', 'ion', 'ax', 'ex', 'on', 'ar', 'is', 'um', 'ik',
];

/** Nice classes weighted roughly like a real year of filings (9, 35, 25, 41, 42 lead). */
export const WEIGHTED_CLASSES = [
  9, 9, 9, 9, 35, 35, 35, 35, 25, 25, 25, 41, 41, 41, 42, 42, 42, 3, 3, 5, 5, 18, 18, 28, 28, 30, 30, 43, 43, 44,
  16, 21, 20, 11, 7, 12, 14, 29, 32, 33, 36, 45, 10, 8, 6, 1, 4, 2, 13, 15, 17, 19, 22, 23, 24, 26, 27, 31, 34,
  37, 38, 39, 40,
];
export const GOODS: Readonly<Record<number, string>> = {
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
export const GENERIC_GOODS = 'Goods and services in this class, namely, products sold under the mark';

export const EVENTS_APPLICATION: readonly (readonly [string, string, string])[] = [
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
export const EVENTS_REGISTRATION: readonly (readonly [string, string, string])[] = [
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
export const EVENTS_DEAD_APPLICATION: readonly (readonly [string, string, string])[] = [
  ['ABN2', 'S', 'ABANDONMENT - FAILURE TO RESPOND OR LATE RESPONSE'],
  ['MAB2', 'E', 'ABANDONMENT NOTICE E-MAILED - FAILURE TO RESPOND'],
];
export const EVENT_DEAD_REGISTRATION = ['CAEX', 'O', 'CANCELLED SEC. 8 (10-YR)/EXPIRED SECTION 9'] as const;

export const HEADER_FLAGS = [
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
export type HeaderFlag = (typeof HEADER_FLAGS)[number];

export const CITIES = [
  ['NEW YORK', 'NY', '10004'], ['LOS ANGELES', 'CA', '90012'], ['CHICAGO', 'IL', '60601'], ['AUSTIN', 'TX', '78701'],
  ['SEATTLE', 'WA', '98101'], ['MIAMI', 'FL', '33131'], ['DENVER', 'CO', '80202'], ['BOSTON', 'MA', '02108'],
] as const;
export const FOREIGN = [
  ['SHENZHEN', 'CN', '518000'], ['GUANGZHOU', 'CN', '510000'], ['YIWU', 'CN', '322000'], ['TORONTO', 'CA', 'M5H 2N2'],
  ['LONDON', 'GB', 'EC1A 1BB'], ['BERLIN', 'DE', '10115'],
] as const;
export const ENTITY_SUFFIXES = [
  ['LLC', '16'], ['INC.', '03'], ['CORPORATION', '03'], ['CO., LTD.', '99'], ['GMBH', '99'], ['LIMITED', '99'],
] as const;
export function entityTypeOf(ownerName: string): string {
  return ENTITY_SUFFIXES.find(([suffix]) => ownerName.endsWith(suffix))?.[1] ?? '03';
}
export const ATTORNEYS = ['Jordan A. Sample', 'Casey Example', 'Morgan Placeholder', 'Riley Testcase', 'Avery Fixture'];
export const LOCATIONS = [
  'INTENT TO USE SECTION',
  'PUBLICATION AND ISSUE SECTION',
  'TMO LAW OFFICE 101 - EXAMINING ATTORNEY ASSIGNED',
  'GENERIC WEB UPDATE',
  'POST REGISTRATION',
];
