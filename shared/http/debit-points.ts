/**
 * The charge. After validation (nothing is charged for a refused request) the cost is debited in one DynamoDB
 * transaction with its usage record. If anything fails after that, the charge is refunded, at most once.
 * Successful responses carry X-Points-Cost and X-Points-Balance: the balance this call's own debit left (not a
 * read made later, which other calls of the account could have moved). A replay of an Idempotency-Key charges
 * nothing: it says X-Points-Cost 0, and X-Points-Balance is the balance as read now.
 *
 * When the table does not answer (unreachable, cut off), the refund is tried again with backoff for as long as
 * the function has time left, so that a table back within seconds still gets every charge of a failed request
 * back. A debit that got no answer is refunded the same way: the refund's condition makes it a no-op when the
 * charge was never made.
 */
import { retry } from '../async/retry';
import { isTransientFailure } from '../dependency-failures';
import { DebitOutcomeUnknownError, ServiceUnavailableError } from '../errors';
import type { AccountStore, Debit, UsageLedger } from '../ports';
import type { Logger } from '../observability';
import type { ApiMiddleware, ApiRequest, Operation } from './types';

export function debitPoints<Input>(options: {
  operation: Pick<Operation<Input, unknown>, 'name'> & { cost: NonNullable<Operation<Input, unknown>['cost']> };
  ledger: UsageLedger;
  accounts: AccountStore;
  logger: Logger;
  now: () => Date;
  /** The time kept back from the function's deadline (http.deadlineMarginMs). */
  deadlineMarginMs: number;
}): ApiMiddleware {
  const debitPointsBefore = async (request: ApiRequest): Promise<void> => {
    const state = request.internal;
    if (state.idempotency?.replay) return;
    const caller = state.caller!;
    // A charge begun this close to the deadline could not be refunded in time if the work then failed: refuse it
    // uncharged (the debit, the work's first steps and a refund each need a round trip or more).
    if (hasDeadline(request) && remainingTimeOf(request)() < options.deadlineMarginMs + DEBIT_RESERVE_MS)
      throw new ServiceUnavailableError('The service');
    const { points, units } = options.operation.cost(state.input as Input);
    state.charge = { points, units };
    try {
      state.charge.debit = await options.ledger.debit({
        accountId: caller.accountId,
        keyId: caller.keyId,
        cost: points,
        units,
        operation: options.operation.name,
        requestId: state.requestId,
        now: options.now(),
      });
    } catch (error) {
      // Perhaps charged, perhaps not: the refund below settles it either way.
      if (error instanceof DebitOutcomeUnknownError) state.charge.debit = error.debit;
      throw error;
    }
  };

  const debitPointsAfter = async (request: ApiRequest): Promise<void> => {
    const { charge, idempotency, caller } = request.internal;
    const response = request.response;
    if (!response) return;
    if (idempotency?.replay) {
      // Nothing was charged for this call; the stored response's balance is the first call's, long past.
      response.headers['X-Points-Cost'] = '0';
      const account = await options.accounts.getAccount(caller!.accountId, { consistent: true }).catch(() => undefined);
      if (account) response.headers['X-Points-Balance'] = String(account.points);
      else delete response.headers['X-Points-Balance'];
      return;
    }
    if (!charge?.debit) return;
    response.headers['X-Points-Cost'] = String(charge.points);
    if (charge.debit.balanceAfter !== undefined)
      response.headers['X-Points-Balance'] = String(charge.debit.balanceAfter);
  };

  const debitPointsOnError = async (request: ApiRequest): Promise<void> => {
    const state = request.internal;
    const debit = state.charge?.debit;
    if (!debit || state.charge!.refunded) return;
    const reason = request.error instanceof Error ? request.error.name : 'error';
    try {
      await refundWithinTime(options.ledger, debit, reason, options.now, remainingTimeOf(request));
      state.charge!.refunded = true;
    } catch (error) {
      // The usage record still says `charged`; this line names it, and `npm run admin -- refund` gives it back.
      options.logger.error(REFUND_FAILED_MESSAGE, {
        requestId: state.requestId,
        accountId: debit.accountId,
        entryId: debit.entryId,
        error: error as Error,
      });
    }
  };

  return { before: debitPointsBefore, after: debitPointsAfter, onError: debitPointsOnError };
}

/** The log line of a charge that could not be given back: the refund-failed alarm counts it (infra/constructs/alarms.ts). */
export const REFUND_FAILED_MESSAGE = 'refund failed';

/** Time a debit needs beyond the deadline margin to be made and, if need be, given back. */
const DEBIT_RESERVE_MS = 1000;

/** Time kept for the rest of the chain (the error envelope, the access log) after the last refund attempt. */
const REFUND_MARGIN_MS = 250;

function hasDeadline(request: ApiRequest): boolean {
  return (
    typeof (request.context as { getRemainingTimeInMillis?: unknown } | undefined)?.getRemainingTimeInMillis ===
    'function'
  );
}

function remainingTimeOf(request: ApiRequest): () => number {
  const context = request.context as { getRemainingTimeInMillis?: () => number } | undefined;
  return typeof context?.getRemainingTimeInMillis === 'function' ? () => context.getRemainingTimeInMillis!() : () => 0;
}

async function refundWithinTime(
  ledger: UsageLedger,
  debit: Debit,
  reason: string,
  now: () => Date,
  remainingMs: () => number,
): Promise<void> {
  await retry(() => ledger.refund(debit, reason, now()), {
    attempts: Number.POSITIVE_INFINITY,
    baseMs: 50,
    capMs: 1000,
    jitter: 'none',
    retryable: isTransientFailure,
    // Always a second try; more while the function has time for them.
    canWait: (pause, attempt) => attempt < 2 || remainingMs() >= pause + REFUND_MARGIN_MS,
  });
}
