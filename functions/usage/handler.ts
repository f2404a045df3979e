/** GET /v1/usage: this account's (or this key's) usage records, newest first, paged, with totals. Free, every tier. */
import { dependencies } from '../../shared/composition/metering';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import { usageReport, type UsageReport } from '../../shared/metering/usage-report';
import type { UsageLedger } from '../../shared/ports';
import { USAGE_QUERY_FIELDS, usageQuerySchema, type UsageQueryInput } from './schema';

export function usageOperation(
  ledger: UsageLedger,
  now: () => Date = () => new Date(),
): Operation<UsageQueryInput, UsageReport> {
  return {
    name: 'usage',
    method: 'GET',
    minTier: 'free',
    schema: usageQuerySchema,
    queryFields: USAGE_QUERY_FIELDS,
    run: (input, context) => usageReport(ledger, { accountId: context.accountId, keyId: context.keyId }, input, now()),
  };
}

export const handler = lazyHandler(() => {
  const deps = dependencies();
  return buildApiHandler(usageOperation(deps.ledger, deps.now), deps);
});
