/** The shipped calibrations, by embedder name (see calibration.ts; written by builders/logo-embedder/calibrate.ts). */
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

export const LOGO_CALIBRATIONS: Readonly<Record<string, Calibration>> = Object.fromEntries(
  Object.entries(shipped.embedders as unknown as Record<string, Calibration>).map(([name, calibration]) => [
    name,
    checkCalibration(name, calibration),
  ]),
);
