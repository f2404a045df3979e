/** The Schedule A caption rule and the plaintiff rule, over captions and party types as dockets write them. */
import { isPlaintiff, isScheduleACaseName } from '../../../shared/data-jobs/schedule-a';

describe('isScheduleACaseName', () => {
  it.each([
    'Spin Master Ltd. v. The Partnerships and Unincorporated Associations Identified on Schedule A',
    'Nike, Inc. v. The Partnerships and Unincorporated Associations Identified in Schedule "A"',
    'Oakley, Inc. v. The Individuals, Corporations, Limited Liability Companies, Partnerships, and Unincorporated Associations Identified on Schedule A Hereto',
    'GoPro, Inc. v. The Individuals, Partnerships and Unincorporated Associations Identified on Schedule “A”',
    "Tory Burch LLC v. The Partnerships Identified on Schedule 'A'",
    'Brontavia Holdings LLC v. Defendants Identified in Schedule-A',
    'ZURU (Singapore) PTE., LTD. v. THE INDIVIDUALS, CORPORATIONS, LIMITED LIABILITY COMPANIES, PARTNERSHIPS, AND UNINCORPORATED ASSOCIATIONS IDENTIFIED ON SCHEDULE A HERETO',
    'Sanrio Company, Ltd. v. Does 1-X',
    'Lululemon Athletica Canada Inc. v. Does 1-100',
    'Bose Corporation v. Does 1 through 50',
    'Harley-Davidson Motor Company v. The Partnerships and Unincorporated Associations Identified on Sched. A',
  ])('%s', (caption) => {
    expect(isScheduleACaseName(caption)).toBe(true);
  });

  it.each([
    'Acme Brands Co. v. Acme Widgets Inc.',
    'Nike, Inc. v. Lululemon USA Inc.',
    'United States v. Schedule of Assets',
    'In re Scheduled Airline Traffic',
    'Doe v. Schedulers Inc.',
    'Doe v. Board of Education',
  ])('not %s', (caption) => {
    expect(isScheduleACaseName(caption)).toBe(false);
  });
});

describe('isPlaintiff', () => {
  it.each([
    [['Plaintiff'], true],
    [['Consolidated Plaintiff'], true],
    [['Defendant', 'Plaintiff'], true],
    [['Defendant'], false],
    [['Counter-Plaintiff'], false],
    [['Counter Plaintiff'], false],
    [['Third Party Plaintiff'], false],
    [[], false],
  ])('%j: %s', (types, expected) => {
    expect(isPlaintiff({ name: 'Someone', types })).toBe(expected);
  });
});
