/**
 * The charge. After validation (nothing is charged for a refused request) the cost is debited in one DynamoDB
 * transaction with its usage record. If anything fails after that, the charge is refunded, at most once.
 * Successful responses carry X-Points-Cost and X-Points-Balance.
 */
import type { AccountStore, UsageLedger } from '../ports';
import type { Logger } from '../observability';
import type { ApiMiddleware, ApiRequest, Operation } from './types';

export function debitPoints<Input>(options: {
  operation: Pick<Operation<Input, unknown>, 'name' | 'cost'>;
  ledger: UsageLedger;
  accounts: AccountStore;
  logger: Logger;
  now: () => Date;
}): ApiMiddleware {
  const debitPointsBefore = async (request: ApiRequest): Promise<void> => {
    const state = request.internal;
    if (state.idempotency?.replay) return;
    const caller = state.caller!;
    const { points, units } = options.operation.cost(state.input as Input);
    state.charge = { points, units };
    state.charge.debit = await options.ledger.debit({
      accountId: caller.accountId,
      cost: points,
      units,
      operation: options.operation.name,
      requestId: state.requestId,
      now: options.now(),
    });
    // Read the balance while the work runs, so the header costs no extra wait.
    state.charge.balance = options.accounts
      .getAccount(caller.accountId, { consistent: true })
      .then((account) => account?.points)
      .catch(() => undefined);
  };

  const debitPointsAfter = async (request: ApiRequest): Promise<void> => {
    const charge = request.internal.charge;
    if (!charge?.debit || !request.response) return;
    request.response.headers['X-Points-Cost'] = String(charge.points);
    const balance = await charge.balance;
    if (balance !== undefined) request.response.headers['X-Points-Balance'] = String(balance);
  };

  const debitPointsOnError = async (request: ApiRequest): Promise<void> => {
    const state = request.internal;
    const debit = state.charge?.debit;
    if (!debit || state.charge!.refunded) return;
    const reason = request.error instanceof Error ? request.error.name : 'error';
    try {
      await options.ledger.refund(debit, reason, options.now());
      state.charge!.refunded = true;
    } catch (error) {
      // The usage record still says `charged`; this line names it, and `npm run admin -- refund` gives it back.
      options.logger.error('refund failed', { requestId: state.requestId, accountId: debit.accountId, entryId: debit.entryId, error: error as Error });
    }
  };

  return { before: debitPointsBefore, after: debitPointsAfter, onError: debitPointsOnError };
}
