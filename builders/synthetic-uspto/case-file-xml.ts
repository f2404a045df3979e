/** The XML of one synthetic case-file, indented like the real file (its parent <action-keys> sits at six spaces). */
import { type CaseFileContext, type CaseFile, drawCaseFile } from './case-file';
import { escapeXml, pad3, yyyymmdd } from './field-values';
import type { Draw } from './random';
import type { Lifecycle } from './reference-data';
import {
  ENTITY_SUFFIXES,
  entityTypeOf,
  EVENT_DEAD_REGISTRATION,
  EVENTS_APPLICATION,
  EVENTS_DEAD_APPLICATION,
  EVENTS_REGISTRATION,
  GENERIC_GOODS,
  GOODS,
  HEADER_FLAGS,
  LOCATIONS,
  SYNTHETIC_OWNER_MARKER,
  WORDS,
} from './vocabulary';

/** The parts of a case-file in the order the real file writes them; each draws what it needs in turn. */
const SECTIONS = [headerXml, statementsXml, eventsXml, classificationsXml, correspondentXml, ownersXml, madridXml];

export function caseFileXml(serial: number, lifecycle: Lifecycle, context: CaseFileContext): string {
  const caseFile = drawCaseFile(serial, lifecycle, context);
  const out: string[] = [];
  for (const section of SECTIONS) section(out, caseFile, context.draw);
  out.push('        </case-file>\n');
  return out.join('');
}

/** The opening of the case-file and its header: numbers, dates, status, mark, attorney and flags. */
function headerXml(out: string[], caseFile: CaseFile, draw: Draw): void {
  const { serial, lifecycle, transactionDay, statusCode, everRegistered, filingDay, registrationDay } = caseFile;
  const { statusDay, drawingCode, mark, registrationNumber, attorney, flags } = caseFile;
  out.push(
    '        <case-file>\n',
    `          <serial-number>${serial}</serial-number>\n`,
    `          <registration-number>${registrationNumber}</registration-number>\n`,
    `          <transaction-date>${yyyymmdd(transactionDay)}</transaction-date>\n`,
    '          <case-file-header>\n',
    `            <filing-date>${yyyymmdd(filingDay)}</filing-date>\n`,
  );
  if (registrationDay !== undefined)
    out.push(`            <registration-date>${yyyymmdd(registrationDay)}</registration-date>\n`);
  out.push(
    `            <status-code>${statusCode}</status-code>\n`,
    `            <status-date>${yyyymmdd(statusDay)}</status-date>\n`,
  );
  if (mark !== undefined) out.push(`            <mark-identification>${escapeXml(mark)}</mark-identification>\n`);
  out.push(`            <mark-drawing-code>${drawingCode}</mark-drawing-code>\n`);
  if (lifecycle !== 'pending' || draw.chance(0.3)) {
    out.push(
      `            <published-for-opposition-date>${yyyymmdd(filingDay + draw.int(120, 240))}</published-for-opposition-date>\n`,
    );
  }
  if (draw.chance(0.8))
    out.push(`            <attorney-docket-number>SYN-${serial % 100_000}</attorney-docket-number>\n`);
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
  );
}

/** Goods and services of each class, then the pseudo-mark, drawing and colour statements. */
function statementsXml(out: string[], caseFile: CaseFile, draw: Draw): void {
  const { classes, drawingCode, mark } = caseFile;
  out.push('          <case-file-statements>\n');
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
  out.push('          </case-file-statements>\n');
}

/** The prosecution history: newest event first, dated from filing to the status date. */
function eventsXml(out: string[], caseFile: CaseFile, draw: Draw): void {
  const { lifecycle, everRegistered, filingDay, statusDay } = caseFile;
  out.push('          <case-file-event-statements>\n');
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
  out.push('          </case-file-event-statements>\n');
}

/** One classification per Nice class, with US codes and first-use dates. */
function classificationsXml(out: string[], caseFile: CaseFile, draw: Draw): void {
  const { filingDay, classes, intentToUse } = caseFile;
  out.push('          <classifications>\n');
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
  out.push('          </classifications>\n');
}

/** The correspondent: the attorney's synthetic law office. */
function correspondentXml(out: string[], caseFile: CaseFile, draw: Draw): void {
  const { city, region, postcode, attorney } = caseFile;
  out.push(
    '          <correspondent>\n',
    `            <address-1>${attorney.toUpperCase()}</address-1>\n`,
    '            <address-2>SYNTHETIC LAW OFFICE</address-2>\n',
    `            <address-3>${draw.int(1, 9999)} EXAMPLE AVENUE</address-3>\n`,
    `            <address-4>${city}, ${region} ${postcode}</address-4>\n`,
    '          </correspondent>\n',
  );
}

/** The owners: applicant, registrant and now and then an assignee, all marked SYNTHETIC. */
function ownersXml(out: string[], caseFile: CaseFile, draw: Draw): void {
  const { serial, everRegistered, foreign, city, region, postcode } = caseFile;
  out.push('          <case-file-owners>\n');
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
}

/** Now and then (2%) a Madrid international filing record. */
function madridXml(out: string[], caseFile: CaseFile, draw: Draw): void {
  const { serial, transactionDay } = caseFile;
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
}
