/**
 * A device named by its model in the title of a part made for it: "HP Pavilion dv5-1008ax 6 Cell Laptop Battery",
 * "Lenovo IdeaPad V470 Replacement Battery", "Sony Vaio VPC-EH1E1E/B 75 Adapter". The title sells the part (its
 * head noun: battery, adapter, case) and names the machine it fits by maker, line and model code, with no "for": a
 * nominative use, 中 at most, as "battery for HP Pavilion dv5" is. The part's own maker, when the title names one,
 * stands before the device ("Lapguard HP Pavilion dv5-1005ef Laptop Battery") and is judged as before.
 *
 * Read from the title alone: a model code within MODEL_CODE_REACH words after the mark (or a device noun within
 * DEVICE_NOUN_REACH: "Apple Watch band", or ending the mark itself: APPLE WATCH), and a part noun as the head of the
 * title after it. A mark followed by a model code in the title of a whole product ("Canon EOS 1500D DSLR Camera",
 * "Apple Watch Series 9") is the product's maker and is not touched.
 *
 * An accessory titled with the device first names the device by its line rather than its model: "ipod touch
 * shield", "blackberry playbook screen protector", "iphone 12 case". The mark, first in the title, followed by one
 * or two words of a line (English words that name no product and describe nothing: "touch", "playbook"; or a
 * number) and an accessory noun as the head (ACCESSORY_NOUNS: what is made to fit a device, not goods in their own
 * right, as a belt or a strap is) names the device. With nothing between ("Samsung charger") the mark stays the
 * maker's; a line word that is no English word ("OtterBox iPhone 12 case") is another name, and the mark before it
 * the accessory's maker.
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
 * Part nouns of accessories made to fit a device, and nothing else: a case, a screen protector, a charger for it.
 * They alone let a device's line name the device (see above); a band, a belt or a strap is also goods of its own.
 */
const ACCESSORY_NOUNS: ReadonlySet<string> = new Set([
  'adapter',
  'adaptor',
  'bumper',
  'case',
  'cases',
  'charger',
  'cover',
  'covers',
  'holder',
  'keyboard',
  'mount',
  'protector',
  'protectors',
  'shield',
  'skin',
  'sleeve',
]);

/** How many words of a device's line may stand between the mark and an accessory noun ("blackberry playbook"). */
const LINE_REACH = 2;

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
  let device = code >= 0 ? code : deviceNounAfter(context, candidate);
  if (device < 0 && DEVICE_NOUNS.has(context.normalised[candidate.end - 1]!)) device = candidate.end - 1;
  if (device >= 0) {
    const head = headNounIndex(context, device + 1);
    if (head > device && PART_NOUNS.has(context.normalised[head]!) && !isRadioBand(context, head)) return true;
  }
  return namesDeviceByLine(context, candidate);
}

/**
 * First in the title, then one or two words of the device's line and an accessory noun as the title's head:
 * "ipod touch shield", "iphone 12 case clear" (a colour or size after the head is no part of it).
 */
function namesDeviceByLine(context: TitleContext, candidate: Candidate): boolean {
  if (candidate.start > 1 || candidate.end >= context.words.length) return false;
  // A maker's name before the line ("blackberry playbook"): any word that is no product noun nor ordinary goods.
  if (candidate.start === 1 && !isMakerWord(context, 0)) return false;
  const head = headNounIndex(context, candidate.end);
  if (head <= candidate.end || !ACCESSORY_NOUNS.has(context.normalised[head]!)) return false;
  // "screen protector": the accessory's own modifier ends the line.
  let lineEnd = head;
  if (lineEnd - 1 >= candidate.end && context.words[lineEnd - 1]!.facts.classes.length > 0) lineEnd--;
  // The line is the words between, or the mark itself after its maker's name; "Samsung screen protector" has none.
  if (lineEnd === candidate.end && candidate.start === 0) return false;
  // A model number the title splits in two ("S21": "s", "21") is one word of the line.
  let words = 0;
  for (let i = candidate.end; i < lineEnd; i++) {
    if (!isLineWord(context, i)) return false;
    if (!context.words[i]!.facts.trivial || !/^\d/.test(context.normalised[i]!) || i === candidate.end) words++;
  }
  return words <= LINE_REACH;
}

function isMakerWord(context: TitleContext, index: number): boolean {
  const facts = context.words[index]!.facts;
  return !(facts.classes.length > 0 && !facts.dualUse) && !facts.generic && !facts.descriptor && !facts.stopword;
}

/**
 * A word of a device's line: a number or a letter ("12", "S21" read as "s", "21"), or a word that names no product and describes nothing ("touch",
 * "playbook", "galaxy"; not "leather", "black", "slim").
 */
function isLineWord(context: TitleContext, index: number): boolean {
  const word = context.words[index]!;
  const facts = word.facts;
  if (facts.trivial) return true;
  return !(
    facts.classes.length > 0 ||
    facts.descriptor ||
    facts.describing ||
    facts.stopword ||
    facts.headBoundary ||
    facts.descriptorPrefix
  );
}

/** How many radio bands a device works on ("Dual Band", "tri-band"). */
const BAND_COUNTS: ReadonlySet<string> = new Set(['single', 'dual', 'tri', 'triple', 'quad', 'multi']);

/** "TP-LINK N600 Wireless Dual Band": the band a router works on, not a strap made for a watch. */
function isRadioBand(context: TitleContext, head: number): boolean {
  const noun = context.normalised[head]!;
  return (noun === 'band' || noun === 'bands') && head > 0 && BAND_COUNTS.has(context.normalised[head - 1]!);
}
