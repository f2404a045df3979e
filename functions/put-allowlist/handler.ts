/** PUT /v1/allowlist: replaces the account's own brands, which screening then does not raise. Free, every tier. */
import { allowlistStore } from '../../shared/composition/allowlist';
import { dependencies } from '../../shared/composition/metering';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { AllowlistStore } from '../../shared/ports';
import { allowlistView, type AllowlistView } from '../../shared/screening/allowlist-view';
import { distinctBrands, precheckPutAllowlist, putAllowlistRequestSchema, type PutAllowlistRequest } from './schema';

export function putAllowlistOperation(
  store: AllowlistStore,
  now: () => Date = () => new Date(),
): Operation<PutAllowlistRequest, AllowlistView> {
  return {
    name: 'put-allowlist',
    method: 'PUT',
    minTier: 'free',
    schema: putAllowlistRequestSchema,
    precheck: precheckPutAllowlist,
    run: async (input, context) =>
      allowlistView(await store.put(context.accountId, distinctBrands(input.brands), now())),
  };
}

export const handler = lazyHandler(() =>
  buildApiHandler(putAllowlistOperation(allowlistStore(), dependencies().now), dependencies()),
);
