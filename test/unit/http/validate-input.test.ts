import * as z from 'zod';
import { InvalidRequestError, TooManyItemsError } from '../../../shared/errors';
import { fieldPath, issuesOf, validateInput } from '../../../shared/http/validate-input';
import { batchScreenRequestSchema, precheckBatchScreen } from '../../../functions/batch-screen/schema';
import { handMadeRequest, thrownBy } from './hand-made-request';

describe('fieldPath', () => {
  it.each<[PropertyKey[], string]>([
    [[], ''],
    [['items'], 'items'],
    [['items', 3, 'title'], 'items[3].title'],
    [['a', 'b', 'c'], 'a.b.c'],
    [[0], '[0]'],
    [[0, 1], '[0][1]'],
    [['matrix', 2, 5], 'matrix[2][5]'],
  ])('%j reads %j', (path, expected) => {
    expect(fieldPath(path)).toBe(expected);
  });
});

describe('issuesOf', () => {
  const schema = z.object({ name: z.string('must be a string'), tags: z.array(z.number('must be a number')) });

  it('lists every issue with its field path and message', () => {
    const parsed = schema.safeParse({ name: 1, tags: [1, 'x', 3, 'y'] });
    expect(parsed.success).toBe(false);

    const issues = issuesOf(parsed.error!);

    expect(issues).toEqual([
      { field: 'name', message: 'must be a string' },
      { field: 'tags[1]', message: 'must be a number' },
      { field: 'tags[3]', message: 'must be a number' },
    ]);
  });

  it('keeps at most maxIssues', () => {
    const parsed = schema.safeParse({ name: 'n', tags: Array.from({ length: 80 }, () => 'x') });

    expect(issuesOf(parsed.error!)).toHaveLength(50);
    expect(issuesOf(parsed.error!, 2)).toEqual([
      { field: 'tags[0]', message: 'must be a number' },
      { field: 'tags[1]', message: 'must be a number' },
    ]);
  });
});

describe('validateInput middleware', () => {
  const operation = { schema: batchScreenRequestSchema, precheck: precheckBatchScreen };

  it('stores the parsed input, with defaults applied', () => {
    const request = handMadeRequest({ internal: { body: { items: [{ title: 'Mug', nice: 21 }] } } });

    validateInput(operation).before!(request);

    expect(request.internal.input).toEqual({ items: [{ title: 'Mug', nice: '21' }], detail: false });
  });

  it('validates the merged input when there is one, not the bare body', () => {
    const request = handMadeRequest({ internal: { body: {}, rawInput: { items: [{ title: 'Cup' }] } } });

    validateInput(operation).before!(request);

    expect(request.internal.input).toEqual({ items: [{ title: 'Cup' }], detail: false });
  });

  it('runs the precheck before the schema', async () => {
    const items = Array.from({ length: 1001 }, () => ({ title: 42 }));
    const request = handMadeRequest({ internal: { body: { items } } });

    const error = await thrownBy(() => validateInput(operation).before!(request));

    expect(error).toBeInstanceOf(TooManyItemsError);
    expect(request.internal.input).toBeUndefined();
  });

  it("runs the operation's validate on the parsed input, after the schema and before the input is stored", async () => {
    const seen: unknown[] = [];
    const refusal = new Error('refused after the schema');
    const validating = {
      ...operation,
      validate: (input: unknown) => {
        seen.push(input);
        throw refusal;
      },
    };
    const request = handMadeRequest({ internal: { body: { items: [{ title: 'Mug', nice: 21 }] } } });

    const error = await thrownBy(() => validateInput(validating).before!(request));

    expect(error).toBe(refusal);
    expect(seen).toEqual([{ items: [{ title: 'Mug', nice: '21' }], detail: false }]);
    expect(request.internal.input).toBeUndefined();
  });

  it('a refused input is a 400 invalid_request with the fields in details.issues', async () => {
    const request = handMadeRequest({ internal: { body: { items: [{ title: 'ok' }, { title: '' }], detail: 'yes' } } });

    const error = await thrownBy(() => validateInput(operation).before!(request));

    expect(error).toBeInstanceOf(InvalidRequestError);
    const invalid = error as InvalidRequestError;
    expect(invalid.status).toBe(400);
    expect(invalid.code).toBe('invalid_request');
    const fields = (invalid.details!.issues as { field: string }[]).map((i) => i.field).sort();
    expect(fields).toEqual(['detail', 'items[1].title']);
    expect(invalid.messages.en).toContain('items[1].title: must not be empty');
  });
});
