/**
 * POST /v1/batch-screen end to end over real HTTP: the real handler, the real screening engine and the real stores on
 * DynamoDB Local, with a small corpus loaded through the real ingest (test/support/batch-screen-stack.ts).
 *
 * Shown here: every refusal (empty, too many, malformed items, bad Nice classes) named and never charged; a title at the length limit accepted.
 */
import {
  NIKE_TITLE,
  balanceOf,
  chargesOf,
  items,
  openAccount,
  screen,
  useBatchScreenServer,
} from '../support/batch-screen-stack';
import { readJson } from '../support/test-server';

useBatchScreenServer();

describe('refused requests are named and never charged', () => {
  const fieldsOf = (body: { error: { details?: { issues?: { field: string }[] } } }) =>
    (body.error.details?.issues ?? []).map((i) => i.field);
  const valid = (n: number) => items(...Array.from({ length: n }, (_, i) => `Cotton socks ${i}`));

  const cases: [string, unknown, number, string, string[] | undefined][] = [
    ['empty items', { items: [] }, 400, 'invalid_request', ['items']],
    ['no items field', {}, 400, 'invalid_request', ['items']],
    ['items not an array', { items: 'Nike shoes' }, 400, 'invalid_request', ['items']],
    ['1,001 items', { items: valid(1001) }, 413, 'too_many_items', undefined],
    [
      'a non-string title at index 3',
      { items: [...valid(3), { title: 42 }, ...valid(2)] },
      400,
      'invalid_request',
      ['items[3].title'],
    ],
    ['a 10 KB title', { items: [{ title: 'x'.repeat(10 * 1024) }] }, 400, 'invalid_request', ['items[0].title']],
    ['a 501-character title', { items: [{ title: 'é'.repeat(501) }] }, 400, 'invalid_request', ['items[0].title']],
    ['a blank title', { items: [{ title: '   ' }] }, 400, 'invalid_request', ['items[0].title']],
    ['nice 0', { items: [{ title: NIKE_TITLE, nice: 0 }] }, 400, 'invalid_request', ['items[0].nice']],
    ['nice 46', { items: [{ title: NIKE_TITLE, nice: 46 }] }, 400, 'invalid_request', ['items[0].nice']],
    ['nice "abc"', { items: [{ title: NIKE_TITLE, nice: 'abc' }] }, 400, 'invalid_request', ['items[0].nice']],
    ['detail not a boolean', { items: valid(1), detail: 'yes' }, 400, 'invalid_request', ['detail']],
  ];

  it.each(cases)('%s', async (_name, body, status, code, fields) => {
    const { accountId, apiKey } = await openAccount({ points: 5000 });

    const response = await screen(apiKey, body);
    const answer = await readJson(response);

    expect(response.status).toBe(status);
    expect(answer.error.code).toBe(code);
    expect(answer.error.request_id).toBe(response.headers.get('x-request-id'));
    if (fields) expect(fieldsOf(answer)).toEqual(fields);
    expect(response.headers.get('x-points-cost')).toBeNull();
    expect(await balanceOf(accountId)).toBe(5000);
    expect(await chargesOf(accountId)).toEqual([]);
  });

  it('413 says the limit and the count', async () => {
    const { apiKey } = await openAccount({ points: 5000 });

    const answer = await readJson(await screen(apiKey, { items: valid(1001) }));

    expect(answer.error.details).toMatchObject({ limit: 1000, actual: 1001 });
  });

  it('names every malformed item of a batch, and only those', async () => {
    const { accountId, apiKey } = await openAccount({ points: 100 });
    const body = {
      items: [
        { title: 'Cotton socks' },
        { title: null },
        {},
        { title: 'Wool scarf', nice: 46 },
        'Nike shoes',
        { title: 'y'.repeat(10 * 1024) },
        { title: 'Leather belt', nice: '09' },
        { title: ['Nike'] },
      ],
    };

    const response = await screen(apiKey, body);
    const answer = await readJson(response);

    expect(response.status).toBe(400);
    expect(answer.error.code).toBe('invalid_request');
    expect(fieldsOf(answer).sort()).toEqual(
      ['items[1].title', 'items[2].title', 'items[3].nice', 'items[4]', 'items[5].title', 'items[7].title'].sort(),
    );
    expect(await balanceOf(accountId)).toBe(100);
    expect(await chargesOf(accountId)).toEqual([]);
  });

  it('a title of 500 code points (1,000 UTF-16 units of emoji) is accepted and charged 1 point', async () => {
    const { accountId, apiKey } = await openAccount({ points: 10 });

    const response = await screen(apiKey, { items: [{ title: '👟'.repeat(500) }] });
    const body = await readJson(response);

    expect(response.status).toBe(200);
    expect(body.results[0]).toMatchObject({ name: '👟'.repeat(500), risk: '低', tro_hit: false, top_conflict: '' });
    expect(await balanceOf(accountId)).toBe(9);
  });
});
