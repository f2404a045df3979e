/**
 * The points audit that load and fault runs end with. For every account it reads the balance and the usage
 * records straight from the tables and checks:
 *  - every point is accounted for: balance = credits - charges not refunded (no charge lacks a record);
 *  - no request was charged twice (one charge record per request id);
 *  - when the client's view is given (what each response said): every standing charge belongs to a 2xx answer
 *    that reported the same cost, and every 2xx answer that reported a cost has its standing charge. So no
 *    point was taken for a failed request, and no work was given away.
 */
import type { AccountStore, LedgerEntry, UsageLedger } from '../../shared/ports';

/** What the client saw of one request. */
export interface ObservedResponse {
  requestId?: string;
  accountId: string;
  status: number;
  /** X-Points-Cost of a 2xx answer; 0 otherwise. */
  points: number;
  /** The error code of a 4xx/5xx answer, or a transport failure such as `timeout` or `connection_error`. */
  code?: string;
}

export interface AuditReport {
  accounts: number;
  chargeRecords: number;
  refundedRecords: number;
  pointsCharged: number;
  pointsRefunded: number;
  /** Each line names the account or request that broke a rule; empty when the ledger holds. */
  violations: string[];
}

export async function auditLedger(
  stores: { accounts: AccountStore; ledger: UsageLedger },
  accountIds: readonly string[],
  observed?: readonly ObservedResponse[],
): Promise<AuditReport> {
  const report: AuditReport = {
    accounts: accountIds.length,
    chargeRecords: 0,
    refundedRecords: 0,
    pointsCharged: 0,
    pointsRefunded: 0,
    violations: [],
  };
  const standing = new Map<string, LedgerEntry>();

  for (const accountId of accountIds) {
    const [account, entries] = await Promise.all([
      stores.accounts.getAccount(accountId, { consistent: true }),
      stores.ledger.entries(accountId),
    ]);
    if (!account) {
      report.violations.push(`${accountId}: account missing`);
      continue;
    }
    let credits = 0;
    let charges = 0;
    const chargesByRequest = new Map<string, number>();
    for (const entry of entries) {
      if (entry.kind === 'credit') {
        credits += entry.points;
        continue;
      }
      report.chargeRecords++;
      chargesByRequest.set(entry.requestId, (chargesByRequest.get(entry.requestId) ?? 0) + 1);
      if (entry.status === 'refunded') {
        report.refundedRecords++;
        report.pointsRefunded += entry.points;
        continue;
      }
      charges += entry.points;
      standing.set(entry.requestId, entry);
    }
    report.pointsCharged += charges;
    if (account.points !== credits - charges) {
      report.violations.push(
        `${accountId}: balance ${account.points} but credits ${credits} - standing charges ${charges} = ${credits - charges}`,
      );
    }
    if (account.points < 0) report.violations.push(`${accountId}: negative balance ${account.points}`);
    for (const [requestId, count] of chargesByRequest) {
      if (count > 1) report.violations.push(`${accountId}: request ${requestId} has ${count} charge records`);
    }
  }

  if (observed) {
    const seen = new Map<string, ObservedResponse>();
    for (const response of observed) if (response.requestId) seen.set(response.requestId, response);
    for (const [requestId, entry] of standing) {
      const response = seen.get(requestId);
      if (!response)
        report.violations.push(
          `${entry.accountId}: charge for request ${requestId}, whose answer the client never got`,
        );
      else if (response.status < 200 || response.status > 299)
        report.violations.push(
          `${entry.accountId}: charge stands for request ${requestId}, answered ${response.status} ${response.code ?? ''}`,
        );
      else if (response.points !== entry.points)
        report.violations.push(
          `${entry.accountId}: request ${requestId} reported ${response.points} points, charged ${entry.points}`,
        );
    }
    for (const response of observed) {
      if (
        response.status >= 200 &&
        response.status <= 299 &&
        response.points > 0 &&
        !standing.has(response.requestId ?? '')
      ) {
        report.violations.push(
          `${response.accountId}: request ${response.requestId} answered ${response.status} with cost ${response.points} but has no standing charge`,
        );
      }
    }
  }
  return report;
}
