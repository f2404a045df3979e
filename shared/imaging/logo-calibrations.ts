/** The shipped calibrations, by embedder name (see calibration.ts; written by builders/logo-embedder/calibrate.ts). */
import shipped from '../../data/models/logo-embedder/calibration.json';
import { checkCalibration, type Calibration } from './calibration';

export const LOGO_CALIBRATIONS: Readonly<Record<string, Calibration>> = Object.fromEntries(
  Object.entries(shipped.embedders as unknown as Record<string, Calibration>).map(([name, calibration]) => [
    name,
    checkCalibration(name, calibration),
  ]),
);
