/**
 * BatchGetItem and BatchWriteItem over any number of items: split to DynamoDB's limits (100 reads, 25 writes a
 * call), a few calls in flight, and what DynamoDB leaves unprocessed retried with backoff until it is done or the
 * attempts run out (then it throws: a batch that cannot be written must not be reported as written).
 */
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type Key = Record<string, unknown>;
type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Key } };

const MAX_ATTEMPTS = 8;

async function backoff(attempt: number): Promise<void> {
  await new Promise((r) => setTimeout(r, Math.random() * Math.min(1000, 20 * 2 ** attempt)));
}

async function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function batchGetAll(
  doc: DynamoDBDocumentClient,
  table: string,
  keys: readonly Key[],
  options: { consistent?: boolean; inFlight?: number; attributes?: readonly string[] } = {},
): Promise<Record<string, unknown>[]> {
  // Attribute names go through placeholders: some (`name`, `status` ...) are reserved words.
  const projection = options.attributes
    ? {
        ProjectionExpression: options.attributes.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(options.attributes.map((name, i) => [`#a${i}`, name])),
      }
    : {};
  const pages = await inParallel(
    chunks(keys, 100).map((chunk) => async () => {
      const found: Record<string, unknown>[] = [];
      let pending: Key[] = chunk;
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > MAX_ATTEMPTS) throw new Error(`BatchGetItem on ${table}: ${pending.length} keys still unprocessed`);
        const out = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent, ...projection } } }));
        found.push(...(out.Responses?.[table] ?? []));
        pending = (out.UnprocessedKeys?.[table]?.Keys as Key[] | undefined) ?? [];
        if (pending.length) await backoff(attempt);
      }
      return found;
    }),
    options.inFlight ?? 4,
  );
  return pages.flat();
}

export async function batchWriteAll(
  doc: DynamoDBDocumentClient,
  table: string,
  requests: readonly WriteRequest[],
  options: { inFlight?: number } = {},
): Promise<void> {
  await inParallel(
    chunks(requests, 25).map((chunk) => async () => {
      let pending: WriteRequest[] = chunk;
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > MAX_ATTEMPTS) throw new Error(`BatchWriteItem on ${table}: ${pending.length} writes still unprocessed`);
        const out = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (out.UnprocessedItems?.[table] as WriteRequest[] | undefined) ?? [];
        if (pending.length) await backoff(attempt);
      }
    }),
    options.inFlight ?? 4,
  );
}
