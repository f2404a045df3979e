/** What the TRO docket job writes for a brand the list already holds: the stored entry with the dockets' findings joined. */
import { mergeTroEntry } from '../../../shared/data-jobs/tro-docket-job';
import type { TroEntry } from '../../../shared/marks/tro-csv';

const found: TroEntry = {
  brand: 'PAW PATROL',
  plaintiffs: ['Spin Master Ltd.'],
  caseCount: 1,
  caseNumbers: ['1:26-cv-10001'],
  courts: ['N.D. Ill.'],
  lastFilingDate: '2026-11-18',
  sources: ['courtlistener'],
  checkedAgainstDocket: true,
};

it('a new brand is written as found', () => {
  expect(mergeTroEntry(undefined, found)).toEqual(found);
});

it('joins case numbers, plaintiffs, courts and sources, counts distinct cases and keeps the newest filing', () => {
  const stored: TroEntry = {
    brand: 'Paw Patrol',
    plaintiffs: ['Spin Master, Ltd.'],
    caseCount: 2,
    caseNumbers: ['1:25-cv-00077', '1:26-cv-10001'],
    courts: ['N.D. Ill.', 'S.D. Fla.'],
    lastFilingDate: '2026-11-20',
    sources: ['https://example.test/report'],
    checkedAgainstDocket: true,
  };

  expect(mergeTroEntry(stored, found)).toEqual({
    brand: 'Paw Patrol',
    plaintiffs: ['Spin Master, Ltd.', 'Spin Master Ltd.'],
    caseCount: 2,
    caseNumbers: ['1:25-cv-00077', '1:26-cv-10001'],
    courts: ['N.D. Ill.', 'S.D. Fla.'],
    lastFilingDate: '2026-11-20',
    sources: ['https://example.test/report', 'courtlistener'],
    checkedAgainstDocket: true,
  });
});

it('an entry named only by a report (no case number) counts the docket case once, and stays unchecked', () => {
  const reported: TroEntry = {
    brand: 'PAW PATROL',
    plaintiffs: [],
    caseCount: 1,
    caseNumbers: [],
    courts: [],
    sources: ['report'],
    checkedAgainstDocket: false,
  };

  expect(mergeTroEntry(reported, found)).toMatchObject({
    caseCount: 1,
    caseNumbers: ['1:26-cv-10001'],
    lastFilingDate: '2026-11-18',
    checkedAgainstDocket: false,
  });
});
