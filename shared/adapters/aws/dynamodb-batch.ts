/**
 * BatchGetItem and BatchWriteItem over any number of items: split to DynamoDB's limits (100 reads, 25 writes a
 * call), a few calls in flight, and what DynamoDB leaves unprocessed retried with backoff until it is done or the
 * attempts run out (then it throws: a batch that cannot be written must not be reported as written).
 */
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../../async/concurrency';
import { retry } from '../../async/retry';

type Key = Record<string, unknown>;
type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Key } };

const MAX_ATTEMPTS = 8;

/** What DynamoDB left unprocessed is sent again after a backoff; the loop ends when nothing is left. */
class UnprocessedError extends Error {}

const RETRY = {
  attempts: MAX_ATTEMPTS,
  baseMs: 20,
  capMs: 1000,
  retryable: (e: unknown) => e instanceof UnprocessedError,
};

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `T`: the shape of the items read (the table's items, or the attributes projected). */
export async function batchGetAll<T = Record<string, unknown>>(
  doc: DynamoDBDocumentClient,
  table: string,
  keys: readonly Key[],
  options: { consistent?: boolean; inFlight?: number; attributes?: readonly string[] } = {},
): Promise<T[]> {
  // Attribute names go through placeholders: some (`name`, `status` ...) are reserved words.
  const projection = options.attributes
    ? {
        ProjectionExpression: options.attributes.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(options.attributes.map((name, i) => [`#a${i}`, name])),
      }
    : {};
  const pages = await mapWithConcurrency(chunks(keys, 100), options.inFlight ?? 4, async (chunk) => {
    const found: Record<string, unknown>[] = [];
    let pending: Key[] = chunk;
    await retry(async () => {
      const out = await doc.send(
        new BatchGetCommand({
          RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent, ...projection } },
        }),
      );
      found.push(...(out.Responses?.[table] ?? []));
      pending = (out.UnprocessedKeys?.[table]?.Keys as Key[] | undefined) ?? [];
      if (pending.length)
        throw new UnprocessedError(`BatchGetItem on ${table}: ${pending.length} keys still unprocessed`);
    }, RETRY);
    return found;
  });
  return pages.flat() as T[];
}

export async function batchWriteAll(
  doc: DynamoDBDocumentClient,
  table: string,
  requests: readonly WriteRequest[],
  options: { inFlight?: number } = {},
): Promise<void> {
  await mapWithConcurrency(chunks(requests, 25), options.inFlight ?? 4, async (chunk) => {
    let pending: WriteRequest[] = chunk;
    await retry(async () => {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] as WriteRequest[] | undefined) ?? [];
      if (pending.length)
        throw new UnprocessedError(`BatchWriteItem on ${table}: ${pending.length} writes still unprocessed`);
    }, RETRY);
  });
}
