/**
 * An operation that exists only in tests, to drive the metered chain end to end before (and besides) the real
 * engines: it costs what the request says, and fails after the debit when asked to.
 */
import * as z from 'zod';
import { ServiceUnavailableError } from '../../shared/errors';
import type { Operation } from '../../shared/http/types';

export const chargeTestSchema = z.object({
  points: z.number().int().min(1).max(10_000),
  fail: z.enum(['none', 'crash', 'unavailable']).default('none'),
  delayMs: z.number().int().min(0).max(30_000).default(0),
  note: z.string().max(100).optional(),
});

export type ChargeTestInput = z.infer<typeof chargeTestSchema>;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted: the function ran out of time'));
    });
  });
}

export const chargeTestOperation: Operation<
  ChargeTestInput,
  { charged: number; note: string | null; requestId: string }
> = {
  name: 'test-charge',
  minTier: 'professional',
  schema: chargeTestSchema,
  queryFields: { note: 'string', points: 'integer' },
  cost: (input) => ({ points: input.points, units: 1 }),
  async run(input, context) {
    if (input.delayMs) await sleep(input.delayMs, context.signal);
    if (input.fail === 'crash') throw new Error('the work failed after the debit');
    if (input.fail === 'unavailable') throw new ServiceUnavailableError('The test engine');
    if (input.note === 'degraded') context.outcomes.add('Degraded');
    return { charged: input.points, note: input.note ?? null, requestId: context.requestId };
  },
};
