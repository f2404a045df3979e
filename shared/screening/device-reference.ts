/**
 * A device named by its model in the title of a part made for it: "HP Pavilion dv5-1008ax 6 Cell Laptop Battery",
 * "Lenovo IdeaPad V470 Replacement Battery", "Sony Vaio VPC-EH1E1E/B 75 Adapter". The title sells the part (its
 * head noun: battery, adapter, case) and names the machine it fits by maker, line and model code, with no "for": a
 * nominative use, 中 at most, as "battery for HP Pavilion dv5" is. The part's own maker, when the title names one,
 * stands before the device ("Lapguard HP Pavilion dv5-1005ef Laptop Battery") and is judged as before.
 *
 * Read from the title alone: a model code within MODEL_CODE_REACH words after the mark (or a device noun within
 * DEVICE_NOUN_REACH: "Apple Watch band"), and a part noun as the head of the title after it. A mark followed by a
 * model code in the title of a whole product ("Canon EOS 1500D DSLR Camera", "Apple Watch Series 9") is the
 * product's maker and is not touched.
 */
import type { Candidate } from './candidates';
import type { TitleContext } from './title-context';

/** How far after a mark its model code may start ("HP Pavilion dv5-1005ef": the code is the second word after HP). */
const MODEL_CODE_REACH = 2;

/**
 * Nouns of parts, spares, consumables and accessories made to fit another maker's machine (a hand list: no source
 * here sorts goods by whether they fit something else).
 */
const PART_NOUNS: ReadonlySet<string> = new Set([
  'adapter',
  'adaptor',
  'band',
  'bands',
  'batteries',
  'battery',
  'belt',
  'blade',
  'bracket',
  'bulb',
  'bumper',
  'cable',
  'cartridge',
  'cartridges',
  'case',
  'cases',
  'charger',
  'cord',
  'cover',
  'covers',
  'drum',
  'fan',
  'filter',
  'fuser',
  'guard',
  'heatsink',
  'hinge',
  'holder',
  'hood',
  'keyboard',
  'lamp',
  'mount',
  'nozzle',
  'part',
  'parts',
  'protector',
  'protectors',
  'refill',
  'remote',
  'roller',
  'shield',
  'skin',
  'sleeve',
  'strap',
  'straps',
  'toner',
]);

/**
 * Nouns of devices that accessories are made for: the device a mark names when the noun follows it in an
 * accessory's title ("Apple Watch band", "Sony camera strap", "Honda car cover"). A hand list, as PART_NOUNS is.
 */
const DEVICE_NOUNS: ReadonlySet<string> = new Set([
  'camera',
  'car',
  'console',
  'controller',
  'earbuds',
  'headphones',
  'laptop',
  'phone',
  'smartphone',
  'smartwatch',
  'tablet',
  'tv',
  'watch',
]);

/** How far after a mark the device noun it names may stand ("Samsung Galaxy Watch band": the second word). */
const DEVICE_NOUN_REACH = 2;

/**
 * The title's head noun: its last word that is not a number, a size or its unit, a colour or another describing
 * word, nor a connecting word ("... Laptop Battery, Black" -> battery, "Watch band 45mm" -> band).
 */
function headNounIndex(context: TitleContext, from: number): number {
  const { words } = context;
  for (let i = words.length - 1; i >= from; i--) {
    const word = words[i]!;
    const facts = word.facts;
    if (word.cjk) return -1;
    if (/^\d/.test(word.norm) || facts.descriptor || facts.stopword || facts.trivial) continue;
    // The unit of a size written apart from its number ("45 mm", "45mm" read as two words).
    if (word.norm.length <= 3 && i > from && /^\d/.test(words[i - 1]!.norm)) continue;
    return i;
  }
  return -1;
}

/**
 * Where the model code that follows the mark starts (within MODEL_CODE_REACH words), or -1. With `shortNumbers`, a
 * laptop line's short model number counts too (SHORT_MODEL_NUMBER).
 */
export function modelCodeAfter(context: TitleContext, candidate: Candidate, shortNumbers = false): number {
  const last = Math.min(context.words.length, candidate.end + MODEL_CODE_REACH);
  for (let i = candidate.end; i < last; i++) {
    if (context.isModelCodeAt(i)) return i;
    if (shortNumbers && SHORT_MODEL_NUMBER.test(context.codeTokenAt(i) ?? '')) return i;
  }
  return -1;
}

/** Where a device noun follows the mark (within DEVICE_NOUN_REACH words), or -1. */
function deviceNounAfter(context: TitleContext, candidate: Candidate): number {
  const last = Math.min(context.words.length, candidate.end + DEVICE_NOUN_REACH);
  for (let i = candidate.end; i < last; i++) if (DEVICE_NOUNS.has(context.normalised[i]!)) return i;
  return -1;
}

/**
 * A laptop line's model number: one or two letters and three digits ("Lenovo IdeaPad V470", "ThinkPad L420",
 * "X230"). Too short to read as a model code anywhere (TitleContext.isModelCodeAt wants five characters: "USB3",
 * "Cat6" are no models), it names a device when a part's title puts it after the maker.
 */
const SHORT_MODEL_NUMBER = /^[a-z]{1,2}\d{3}$/;

/**
 * The mark names the device a part is made for, in a part's title: followed by the device's model code, or by a
 * device noun ("Apple Watch band 45mm", "Fitbit smartwatch straps"), with the part noun as the title's head after it.
 */
export function namesDeviceOfPart(context: TitleContext, candidate: Candidate): boolean {
  const code = modelCodeAfter(context, candidate, true);
  const device = code >= 0 ? code : deviceNounAfter(context, candidate);
  if (device < 0) return false;
  const head = headNounIndex(context, device + 1);
  return head > device && PART_NOUNS.has(context.normalised[head]!) && !isRadioBand(context, head);
}

/** How many radio bands a device works on ("Dual Band", "tri-band"). */
const BAND_COUNTS: ReadonlySet<string> = new Set(['single', 'dual', 'tri', 'triple', 'quad', 'multi']);

/** "TP-LINK N600 Wireless Dual Band": the band a router works on, not a strap made for a watch. */
function isRadioBand(context: TitleContext, head: number): boolean {
  const noun = context.normalised[head]!;
  return (noun === 'band' || noun === 'bands') && head > 0 && BAND_COUNTS.has(context.normalised[head - 1]!);
}
