/**
 * The facts of one synthetic case-file (status, dates, classes, drawing, mark, place, attorney, header flags), drawn
 * in a fixed order from the seeded generator so the same seed always gives the same file.
 */
import { markText, niceClasses } from './field-values';
import type { Draw } from './random';
import type { Lifecycle, StatusCodes } from './reference-data';
import { ATTORNEYS, CITIES, FOREIGN, type HeaderFlag } from './vocabulary';

export interface CaseFileContext {
  draw: Draw;
  statusCodes: StatusCodes;
  transactionDay: number;
}

export interface CaseFile {
  serial: number;
  lifecycle: Lifecycle;
  transactionDay: number;
  statusCode: string;
  /** Registered now, or a dead mark that was registered before it was cancelled or expired. */
  everRegistered: boolean;
  filingDay: number;
  registrationDay: number | undefined;
  statusDay: number;
  classes: number[];
  drawingCode: string;
  /** Absent for a design-only drawing (code 2000). */
  mark: string | undefined;
  intentToUse: boolean;
  registrationNumber: string;
  foreign: boolean;
  city: string;
  /** A US state, or a country for a foreign owner. */
  region: string;
  postcode: string;
  attorney: string;
  flags: Set<HeaderFlag>;
}

function statusCodeFor(lifecycle: Lifecycle, context: CaseFileContext): string {
  const codes = context.statusCodes[lifecycle];
  return context.draw.chance(0.5) ? context.draw.pick(codes.common) : context.draw.pick(codes.all);
}

/** Draws one case-file's facts; the header flags last, as they depend on the rest. */
export function drawCaseFile(serial: number, lifecycle: Lifecycle, context: CaseFileContext): CaseFile {
  const { draw, transactionDay } = context;
  const statusCode = statusCodeFor(lifecycle, context);
  // Dead marks are either abandoned applications or cancelled/expired registrations: the code says which.
  const cancelledOrExpired = statusCode.startsWith('7') || statusCode.startsWith('9') || statusCode === '626';
  const everRegistered = lifecycle === 'registered' || (lifecycle === 'dead' && cancelledOrExpired);
  const filingDay =
    lifecycle === 'pending'
      ? transactionDay - draw.int(20, 900)
      : transactionDay - draw.int(700, everRegistered ? 12_000 : 6_000);
  const registrationDay = everRegistered ? filingDay + draw.int(250, 700) : undefined;
  const statusDay = Math.min(transactionDay, (registrationDay ?? filingDay) + draw.int(30, 3_000));
  const classes = niceClasses(draw);
  const drawingRoll = draw.random();
  const drawingCode = drawingRoll < 0.03 ? '2000' : drawingRoll < 0.18 ? '3000' : drawingRoll < 0.3 ? '5000' : '4000';
  const mark = drawingCode === '2000' ? undefined : markText(draw);
  const intentToUse = !everRegistered && draw.chance(0.45);
  const registrationNumber = everRegistered ? String(draw.int(1_000_000, 7_999_999)).padStart(7, '0') : '0000000';
  const foreign = draw.chance(0.35);
  const [city, region, postcode] = foreign ? draw.pick(FOREIGN) : draw.pick(CITIES);
  const attorney = draw.pick(ATTORNEYS);
  const facts: Omit<CaseFile, 'flags'> = {
    serial,
    lifecycle,
    transactionDay,
    statusCode,
    everRegistered,
    filingDay,
    registrationDay,
    statusDay,
    classes,
    drawingCode,
    mark,
    intentToUse,
    registrationNumber,
    foreign,
    city,
    region,
    postcode,
    attorney,
  };
  return { ...facts, flags: headerFlagsOf(facts, draw) };
}

/** The header's T flags (every other flag is written F). */
function headerFlagsOf(facts: Omit<CaseFile, 'flags'>, draw: Draw): Set<HeaderFlag> {
  const { classes, intentToUse, drawingCode, everRegistered, foreign } = facts;
  const serviceMark = classes.some((niceClass) => niceClass >= 35);
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
  return flags;
}
