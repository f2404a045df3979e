/**
 * A device named by its model in the title of a part made for it: "HP Pavilion dv5-1008ax 6 Cell Laptop Battery",
 * "Lenovo IdeaPad V470 Replacement Battery", "Sony Vaio VPC-EH1E1E/B 75 Adapter". The title sells the part (its
 * head noun: battery, adapter, case) and names the machine it fits by maker, line and model code, with no "for": a
 * nominative use, 中 at most, as "battery for HP Pavilion dv5" is. The part's own maker, when the title names one,
 * stands before the device ("Lapguard HP Pavilion dv5-1005ef Laptop Battery") and is judged as before.
 *
 * Read from the title alone: a model code within MODEL_CODE_REACH words after the mark, and a part noun as the head
 * of the title after it. A mark followed by a model code in the title of a whole product ("Canon EOS 1500D DSLR
 * Camera") is the product's maker and is not touched.
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
  'charger',
  'cord',
  'cover',
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
  'refill',
  'remote',
  'roller',
  'shield',
  'skin',
  'sleeve',
  'strap',
  'toner',
]);

/**
 * The title's head noun: its last word that is not a number, a size, a colour or another describing word, nor a
 * connecting word ("... Laptop Battery, Black" -> battery).
 */
function headNounIndex(context: TitleContext, from: number): number {
  const { words } = context;
  for (let i = words.length - 1; i >= from; i--) {
    const word = words[i]!;
    const facts = word.facts;
    if (word.cjk) return -1;
    if (/^\d/.test(word.norm) || facts.descriptor || facts.stopword || facts.trivial) continue;
    return i;
  }
  return -1;
}

/** Where the model code that follows the mark starts (within MODEL_CODE_REACH words), or -1. */
export function modelCodeAfter(context: TitleContext, candidate: Candidate): number {
  const last = Math.min(context.words.length, candidate.end + MODEL_CODE_REACH);
  for (let i = candidate.end; i < last; i++) if (context.isModelCodeAt(i)) return i;
  return -1;
}

/** The mark names the device a part is made for: followed by the device's model code, in a part's title. */
export function namesDeviceOfPart(context: TitleContext, candidate: Candidate): boolean {
  const code = modelCodeAfter(context, candidate);
  if (code < 0) return false;
  const head = headNounIndex(context, code + 1);
  return head > code && PART_NOUNS.has(context.normalised[head]!);
}
