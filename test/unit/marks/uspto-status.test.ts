import { drawingKindOfUsptoCode, usptoStatusOf } from '../../../shared/marks/uspto-status';

/** Rows of data/uspto/code-tables/status_codes.csv and drawing_codes.csv, checked against the table by hand. */
describe('usptoStatusOf', () => {
  it.each([
    ['700', 'REGISTERED', 'Live/Registered', 'registered', true],
    ['800', 'REGISTERED AND RENEWED', 'Live/Registered', 'registered', true],
    ['790', 'CANCELLATION PENDING', 'Live/Registered', 'registered', true],
    ['717', 'REGISTERED - AWAITING DIVISIONAL FEE', 'Live', 'registered', true],
    ['688', 'NOTICE OF ALLOWANCE - ISSUED', 'Live/Pending', 'pending', false],
    ['630', 'NEW APPLICATION - RECORD INITIALIZED NOT ASSIGNED TO EXAMINER', 'Live/Pending', 'pending', false],
    ['602', 'ABANDONED-FAILURE TO RESPOND OR LATE RESPONSE', 'Dead/Abandoned', 'dead', false],
    ['710', 'CANCELLED - SECTION 8', 'Dead/Cancelled', 'dead', false],
    ['900', 'EXPIRED', 'Dead/Expired', 'dead', false],
    ['610', 'TERMINATED AFTER SANCTIONS', 'Dead', 'dead', false],
    ['000', 'UNKNOWN', 'Indifferent', 'unknown', false],
    ['715', 'CANCELLED - RESTORED TO PENDENCY', 'Indifferent/Cancelled', 'unknown', false],
  ])('%s %s (%s) -> %s, live %s', (code, description, indicator, category, isLive) => {
    expect(usptoStatusOf(code)).toEqual({ code, description, liveDeadIndicator: indicator, category, isLive });
  });

  it('tolerates surrounding spaces and knows nothing of codes outside the table', () => {
    expect(usptoStatusOf(' 700 ')?.isLive).toBe(true);
    expect(usptoStatusOf('999')).toBeUndefined();
    expect(usptoStatusOf('')).toBeUndefined();
  });
});

describe('drawingKindOfUsptoCode', () => {
  it.each([
    ['1000', 'word'],
    ['2000', 'design'],
    ['3000', 'both'],
    ['4000', 'word'],
    ['5000', 'both'],
    ['6000', 'unknown'],
    ['7000', 'unknown'],
    ['', 'unknown'],
    [undefined, 'unknown'],
  ])('%s -> %s', (code, kind) => {
    expect(drawingKindOfUsptoCode(code)).toBe(kind);
  });
});
