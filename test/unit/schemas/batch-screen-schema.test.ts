import { InvalidRequestError, TooManyItemsError } from '../../../shared/errors';
import { issuesOf } from '../../../shared/http/validate-input';
import { batchScreenRequestSchema, precheckBatchScreen } from '../../../functions/batch-screen/schema';

const items = (n: number, title = 'Ceramic coffee mug') => Array.from({ length: n }, () => ({ title }));

function issuesFor(body: unknown) {
  const parsed = batchScreenRequestSchema.safeParse(body);
  return parsed.success ? [] : issuesOf(parsed.error);
}

describe('batch-screen precheck', () => {
  it('lets 1,000 items through', () => {
    expect(() => precheckBatchScreen({ items: items(1000) })).not.toThrow();
  });

  it('refuses 1,001 items with too_many_items (413) before looking at any item', () => {
    // Arrange: items that would each fail validation, so a per-item check would have answered first.
    const body = { items: Array.from({ length: 1001 }, () => ({ title: 5 })) };

    // Act
    let thrown: unknown;
    try {
      precheckBatchScreen(body);
    } catch (error) {
      thrown = error;
    }

    // Assert
    expect(thrown).toBeInstanceOf(TooManyItemsError);
    const error = thrown as TooManyItemsError;
    expect(error.status).toBe(413);
    expect(error.code).toBe('too_many_items');
    expect(error.details).toEqual({ limit: 1000, actual: 1001 });
  });

  it('refuses items that are not an array with invalid_request naming items', () => {
    let thrown: unknown;
    try {
      precheckBatchScreen({ items: 'Mug' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).details).toEqual({
      issues: [{ field: 'items', message: 'must be an array of {"title": "..."} objects' }],
    });
  });

  it('leaves a missing items to the schema', () => {
    expect(() => precheckBatchScreen({})).not.toThrow();
    expect(issuesFor({})).toEqual([{ field: 'items', message: 'is required' }]);
  });
});

describe('batch-screen schema', () => {
  it('accepts 1,000 items and defaults detail to false', () => {
    const parsed = batchScreenRequestSchema.safeParse({ items: items(1000) });

    expect(parsed.success).toBe(true);
    expect(parsed.data!.items).toHaveLength(1000);
    expect(parsed.data!.detail).toBe(false);
  });

  it('reads each item nice class to its two-digit form', () => {
    const parsed = batchScreenRequestSchema.safeParse({
      items: [{ title: 'a', nice: 9 }, { title: 'b', nice: '21' }, { title: 'c' }],
      detail: true,
    });

    expect(parsed.data).toEqual({
      items: [{ title: 'a', nice: '09' }, { title: 'b', nice: '21' }, { title: 'c' }],
      detail: true,
    });
  });

  it('names a non-string title as items[3].title', () => {
    const body = { items: [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 42 }] };

    expect(issuesFor(body)).toEqual([{ field: 'items[3].title', message: 'must be a string' }]);
  });

  it('names a missing title as required', () => {
    expect(issuesFor({ items: [{ nice: 9 }] })).toEqual([{ field: 'items[0].title', message: 'is required' }]);
  });

  it('accepts a 500-character title and refuses a 501-character one', () => {
    expect(issuesFor({ items: [{ title: 'x'.repeat(500) }] })).toEqual([]);
    expect(issuesFor({ items: [{ title: 'x'.repeat(501) }] })).toEqual([
      { field: 'items[0].title', message: 'must be at most 500 characters' },
    ]);
  });

  it('counts an emoji as one character (500 emoji are 1,000 UTF-16 units)', () => {
    const fiveHundredEmoji = '😀'.repeat(500);
    expect(fiveHundredEmoji.length).toBe(1000);

    expect(issuesFor({ items: [{ title: fiveHundredEmoji }] })).toEqual([]);
    expect(issuesFor({ items: [{ title: `${fiveHundredEmoji}😀` }] })).toEqual([
      { field: 'items[0].title', message: 'must be at most 500 characters' },
    ]);
  });

  it('counts Chinese characters one each', () => {
    expect(issuesFor({ items: [{ title: '杯'.repeat(500) }] })).toEqual([]);
    expect(issuesFor({ items: [{ title: '杯'.repeat(501) }] })).toHaveLength(1);
  });

  it.each(['', '   ', '\n\t'])('refuses the blank title %j', (title) => {
    expect(issuesFor({ items: [{ title }] })).toEqual([{ field: 'items[0].title', message: 'must not be empty' }]);
  });

  it('refuses an empty list', () => {
    expect(issuesFor({ items: [] })).toEqual([{ field: 'items', message: 'must hold at least one item' }]);
  });

  it('refuses an item that is not an object', () => {
    expect(issuesFor({ items: ['Mug'] })).toEqual([{ field: 'items[0]', message: 'must be an object with a title' }]);
  });

  it('names a bad nice class and a bad detail', () => {
    const fields = issuesFor({ items: [{ title: 'a', nice: 46 }], detail: 'yes' }).map((i) => i.field);

    expect(fields).toEqual(['items[0].nice', 'detail']);
  });
});
