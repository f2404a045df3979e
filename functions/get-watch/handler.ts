/** GET /v1/watch: the account's watched items with each title's last result, a page at a time. Free. */
import { dependencies } from '../../shared/composition/metering';
import { watchStore } from '../../shared/composition/watch';
import { InvalidRequestError } from '../../shared/errors';
import { buildApiHandler, lazyHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import type { WatchStore } from '../../shared/ports';
import { watchItemView } from '../../shared/watch/watch';
import { GET_WATCH_QUERY_FIELDS, type GetWatchQuery, getWatchQuerySchema } from './schema';

export interface WatchPage {
  items: Record<string, unknown>[];
  count: number;
  next_cursor: string | null;
}

/** The cursor is the last id of the page, opaque to clients. */
const encodeCursor = (itemId: string) => Buffer.from(JSON.stringify(['w', itemId])).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed[0] === 'w' && typeof parsed[1] === 'string') return parsed[1];
  } catch {}
  throw new InvalidRequestError([{ field: 'cursor', message: 'must be a next_cursor this route returned' }]);
}

export function getWatchOperation(store: WatchStore): Operation<GetWatchQuery, WatchPage> {
  return {
    name: 'get-watch',
    method: 'GET',
    minTier: 'free',
    schema: getWatchQuerySchema,
    queryFields: GET_WATCH_QUERY_FIELDS,
    run: async (input, context) => {
      const after = input.cursor ? decodeCursor(input.cursor) : undefined;
      const page = await store.listItems(context.accountId, { limit: input.limit, ...(after ? { after } : {}) });
      return {
        items: page.items.map(watchItemView),
        count: page.items.length,
        next_cursor: page.last ? encodeCursor(page.last) : null,
      };
    },
  };
}

export const handler = lazyHandler(() => buildApiHandler(getWatchOperation(watchStore()), dependencies()));
