/** GET /v1/allowlist: the account's own brands. Free, every tier. */
import * as z from 'zod';
import { allowlistStore } from '../../shared/composition/allowlist';
import { dependencies } from '../../shared/composition/metering';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { AllowlistStore } from '../../shared/ports';
import { allowlistView, type AllowlistView } from '../../shared/screening/allowlist-view';

export const getAllowlistQuerySchema = z.object({});

export function getAllowlistOperation(store: AllowlistStore): Operation<Record<string, never>, AllowlistView> {
  return {
    name: 'get-allowlist',
    method: 'GET',
    minTier: 'free',
    schema: getAllowlistQuerySchema as z.ZodType<Record<string, never>>,
    run: async (_input, context) => allowlistView(await store.get(context.accountId)),
  };
}

export const handler = lazyHandler(() => buildApiHandler(getAllowlistOperation(allowlistStore()), dependencies()));
