/**
 * The opaque cursor of an account's dead letters (GET /v1/webhook/dead-letters, and POST /v1/webhook/redeliver with
 * `all`): the record id of the last dead letter a page held, base64url. A cursor this service did not write is
 * `invalid_request` on `cursor`.
 */
import { InvalidRequestError } from '../errors';

export function encodeDeadLetterCursor(recordId: string): string {
  return Buffer.from(JSON.stringify(['d', recordId])).toString('base64url');
}

export function decodeDeadLetterCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed[0] === 'd' && typeof parsed[1] === 'string' && parsed[1].startsWith('dead#'))
      return parsed[1];
  } catch {}
  throw new InvalidRequestError([{ field: 'cursor', message: 'must be a next_cursor this route returned' }]);
}
