import { ledgerBalance } from '../../../shared/metering/accounts';
import type { LedgerEntry } from '../../../shared/ports';

function entry(kind: LedgerEntry['kind'], status: LedgerEntry['status'], points: number): LedgerEntry {
  return {
    accountId: 'acct_1',
    entryId: `e${points}${status}`,
    kind,
    status,
    operation: 'op',
    points,
    units: 1,
    requestId: 'r',
    at: '2025-01-01T00:00:00.000Z',
  };
}

describe('ledgerBalance', () => {
  it('is zero for no entries', () => {
    expect(ledgerBalance([])).toBe(0);
  });

  it('adds credits and subtracts charges still standing; refunded charges count for nothing', () => {
    const entries = [
      entry('credit', 'credited', 100),
      entry('charge', 'charged', 7),
      entry('charge', 'refunded', 30),
      entry('credit', 'credited', 5),
      entry('charge', 'charged', 1),
    ];

    expect(ledgerBalance(entries)).toBe(97);
  });
});
