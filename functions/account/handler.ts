/** GET /v1/account: the calling key's account (tier, balance, rate limit, key prefix, prices). Free, every tier. */
import { dependencies } from '../../shared/composition/metering';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { ApiDependencies, Operation } from '../../shared/http/types';
import { accountView, type AccountView } from '../../shared/metering/account-view';
import { accountQuerySchema, type AccountQueryInput } from './schema';

export function accountOperation(
  deps: Pick<ApiDependencies, 'accounts' | 'http'>,
): Operation<AccountQueryInput, AccountView> {
  return {
    name: 'account',
    method: 'GET',
    minTier: 'free',
    schema: accountQuerySchema,
    run: (_input, context) => accountView(deps.accounts, context, deps.http.rateLimit),
  };
}

export const handler = lazyHandler(() => buildApiHandler(accountOperation(dependencies()), dependencies()));
