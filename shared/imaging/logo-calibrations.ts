/**
 * The shipped calibrations, by embedder name (see calibration.ts; written by builders/logo-embedder/calibrate.ts).
 *
 * Each search's calibration is fit twice: over the validation brands alone (`embedders`, an index of some hundreds
 * of designs) and with them added to a register-scale index of distractors (`atScale`, about 100,000). A mark's
 * score in a region search is verified against the crowd of its window (verify-candidates.ts), and the crowd grows
 * with the index: the same score means more in a larger one. A search takes the fit whose index size is nearest its
 * own index's (by ratio); an index that does not say its size (a remote one: the register) takes the largest.
 */
import shipped from '../../data/models/logo-embedder/calibration.json';
import { checkCalibration, type Calibration } from './calibration';

/**
 * The name a calibration is kept under: the embedder's, and the window budget when the search asks only the first
 * `maxWindows` windows (a remote index): fewer windows find fewer marks and other similarities, so a probability
 * fit on the full search would not hold there.
 */
export function calibrationKey(embedder: string, maxWindows?: number): string {
  return maxWindows === undefined ? embedder : `${embedder}, first ${maxWindows} windows`;
}

/** A calibration with the number of designs its index held when it was fit. */
export interface SizedCalibration {
  calibration: Calibration;
  indexDesigns: number;
}

type ShippedFits = Record<string, Calibration & { fitOn?: { indexDesigns?: number } }>;

function sized(fits: ShippedFits | undefined): [string, SizedCalibration][] {
  return Object.entries(fits ?? {}).map(([name, { fitOn, ...calibration }]) => [
    name,
    { calibration: checkCalibration(name, calibration), indexDesigns: fitOn?.indexDesigns ?? 0 },
  ]);
}

const file = shipped as unknown as { embedders: ShippedFits; atScale?: { embedders: ShippedFits } };

/** Every shipped fit of each search, smallest index first. */
export const LOGO_CALIBRATION_FITS: Readonly<Record<string, readonly SizedCalibration[]>> = (() => {
  const fits: Record<string, SizedCalibration[]> = {};
  for (const [name, fit] of [...sized(file.embedders), ...sized(file.atScale?.embedders)])
    fits[name] = [...(fits[name] ?? []), fit];
  for (const list of Object.values(fits)) list.sort((a, b) => a.indexDesigns - b.indexDesigns);
  return fits;
})();

/** The fits over the validation brands alone (the smallest index), by name. */
export const LOGO_CALIBRATIONS: Readonly<Record<string, Calibration>> = Object.fromEntries(
  Object.entries(LOGO_CALIBRATION_FITS).map(([name, fits]) => [name, fits[0]!.calibration]),
);

/**
 * The fit of the search `key` for an index of `indexDesigns` designs: the one whose index size is nearest by ratio;
 * the largest where the size is unknown; undefined where the search has none.
 */
export function fitFor(
  key: string,
  indexDesigns: number | undefined,
  fits: Readonly<Record<string, readonly SizedCalibration[]>> = LOGO_CALIBRATION_FITS,
): SizedCalibration | undefined {
  const list = fits[key];
  if (!list || list.length === 0) return undefined;
  if (indexDesigns === undefined) return list[list.length - 1]!;
  const distance = (fit: SizedCalibration) =>
    Math.abs(Math.log(Math.max(1, indexDesigns)) - Math.log(Math.max(1, fit.indexDesigns)));
  return list.reduce((best, fit) => (distance(fit) < distance(best) ? fit : best));
}

/** The calibration of `fitFor`. */
export function calibrationFor(
  key: string,
  indexDesigns: number | undefined,
  fits: Readonly<Record<string, readonly SizedCalibration[]>> = LOGO_CALIBRATION_FITS,
): Calibration | undefined {
  return fitFor(key, indexDesigns, fits)?.calibration;
}
