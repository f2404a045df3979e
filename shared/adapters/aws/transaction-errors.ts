/** Reading DynamoDB's TransactionCanceledException: which item's condition failed, and the item as it was. */
import { TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { retry } from '../../async/retry';

export function cancellationReasons(error: unknown): CancellationReason[] | undefined {
  return error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : undefined;
}

export function conditionFailedAt(reasons: CancellationReason[], index: number): boolean {
  return reasons[index]?.Code === 'ConditionalCheckFailed';
}

export function oldItemAt(reasons: CancellationReason[], index: number): Record<string, unknown> | undefined {
  const item = reasons[index]?.Item;
  return item ? unmarshall(item) : undefined;
}

/** Concurrent transactions on one item are cancelled with TransactionConflict; they are safe to retry. */
export function isTransactionConflict(reasons: CancellationReason[]): boolean {
  return (
    reasons.some((r) => r.Code === 'TransactionConflict') && !reasons.some((r) => r.Code === 'ConditionalCheckFailed')
  );
}

/** Retries a transaction cancelled only by conflicts, with full-jitter exponential backoff. */
export function withConflictRetry<T>(attempt: () => Promise<T>, maxAttempts = 8): Promise<T> {
  return retry(attempt, {
    attempts: maxAttempts,
    baseMs: 5,
    capMs: 200,
    retryable: (error) => {
      const reasons = cancellationReasons(error);
      return reasons !== undefined && isTransactionConflict(reasons);
    },
  });
}
