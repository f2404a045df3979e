import { precheckPutAllowlist } from '../../../functions/put-allowlist/schema';
import { TooManyItemsError } from '../../../shared/errors';

describe('precheckPutAllowlist', () => {
  it('refuses more than 500 brands with a 413 that counts brands, not items', () => {
    const brands = Array.from({ length: 501 }, (_, i) => `Brand ${i}`);

    let thrown: unknown;
    try {
      precheckPutAllowlist({ brands });
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(TooManyItemsError);
    const error = thrown as TooManyItemsError;
    expect(error.status).toBe(413);
    expect(error.messages.en).toBe(
      'A request may carry at most 500 brands; this one has 501. Split it into several requests.',
    );
    expect(error.messages.en).not.toMatch(/\bitems\b/);
    expect(error.messages.zh).toContain('500 个品牌');
    expect(error.details).toEqual({ limit: 500, actual: 501 });
  });

  it('leaves batch-screen refusals speaking of items', () => {
    expect(new TooManyItemsError(1000, 1001).messages.en).toContain('at most 1000 items');
  });
});
