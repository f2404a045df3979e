/** The CourtListener client over a scripted fetch: the query it sends, what it reads back, party pages, the call cap. */
import { CallCapReachedError, CourtListener } from '../../../shared/data-jobs/court-listener';
import { isPlaintiff } from '../../../shared/data-jobs/schedule-a';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };
const ORIGIN = 'https://cl.test';

/** A scripted fetch (the remote service has no local form here): answers in order, records each request. */
function scripted(answers: Answer[]) {
  const seen: { url: URL; headers: Record<string, string> }[] = [];
  const fetch = (async (url: URL | string, init?: RequestInit) => {
    seen.push({ url: new URL(String(url)), headers: { ...(init?.headers as Record<string, string>) } });
    const answer = answers.shift() ?? { status: 500 };
    const body = answer.body === undefined ? null : JSON.stringify(answer.body);
    return new Response(body, { status: answer.status, headers: answer.headers });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const party = (name: string, type: string, docketId = 77) => ({
  id: 1,
  name,
  party_types: [{ docket: `${ORIGIN}/api/rest/v4/dockets/${docketId}/`, docket_id: docketId, name: type }],
});

it('searches one court for trademark cases filed since a day, oldest first, with the token', async () => {
  const { fetch, seen } = scripted([
    {
      status: 200,
      body: {
        count: 1,
        next: `${ORIGIN}/api/rest/v4/search/?cursor=abc&type=r`,
        previous: null,
        results: [
          {
            docket_id: 5,
            caseName: 'A v. B',
            docketNumber: '1:26-cv-00001 ',
            court_id: 'flsd',
            court_citation_string: 'S.D. Fla.',
            dateFiled: '2026-11-20T00:00:00-08:00',
          },
          { docket_id: 6, caseName: null, docketNumber: null, court_id: 'mied', dateFiled: null },
        ],
      },
    },
  ]);
  const client = new CourtListener({ token: 'tok-1', origin: ORIGIN, maxCalls: 5, fetch });

  const page = await client.searchPage('flsd', '2026-11-01');

  expect(seen[0]!.url.pathname).toBe('/api/rest/v4/search/');
  expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
    type: 'r',
    q: 'caseName:(schedule OR unincorporated OR does)',
    court: 'flsd',
    filed_after: '2026-11-01',
    nature_of_suit: '840',
    order_by: 'dateFiled asc',
  });
  expect(seen[0]!.headers.authorization).toBe('Token tok-1');
  expect(page).toEqual({
    hits: [
      {
        docketId: 5,
        caseName: 'A v. B',
        docketNumber: '1:26-cv-00001',
        courtId: 'flsd',
        court: 'S.D. Fla.',
        dateFiled: '2026-11-20',
      },
      { docketId: 6, caseName: '', docketNumber: '', courtId: 'mied', court: 'mied' },
    ],
    next: `${ORIGIN}/api/rest/v4/search/?cursor=abc&type=r`,
  });
});

it('reads further party pages only while plaintiffs may continue on them', async () => {
  const { fetch, seen } = scripted([
    {
      status: 200,
      body: { next: `${ORIGIN}/api/rest/v4/parties/?cursor=2`, results: [party('A Ltd.', 'Plaintiff')] },
    },
    {
      status: 200,
      body: {
        next: `${ORIGIN}/api/rest/v4/parties/?cursor=3`,
        results: [party('B Inc.', 'Plaintiff'), party('The Partnerships...', 'Defendant'), party('X', 'Plaintiff', 99)],
      },
    },
  ]);
  const client = new CourtListener({ token: 't', origin: ORIGIN, maxCalls: 5, fetch });

  const { parties, pages } = await client.parties(77, isPlaintiff);

  expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
    docket: '77',
    filter_nested_results: 'True',
    order_by: 'id',
  });
  expect(pages).toBe(2);
  expect(parties).toEqual([
    { name: 'A Ltd.', types: ['Plaintiff'] },
    { name: 'B Inc.', types: ['Plaintiff'] },
    { name: 'The Partnerships...', types: ['Defendant'] },
    // Its role is in another docket: none here.
    { name: 'X', types: [] },
  ]);
});

it('follows a next page on its own origin only', async () => {
  const { fetch, seen } = scripted([
    { status: 200, body: { next: 'https://elsewhere.test/api/rest/v4/parties/?cursor=2', results: [] } },
  ]);
  const client = new CourtListener({ token: 't', origin: ORIGIN, maxCalls: 5, fetch });

  await expect(client.parties(77, isPlaintiff)).rejects.toThrow('a next page on another origin');
  expect(seen).toHaveLength(1);
});

it('waits what a 429 asks (an HTTP date), and sends nothing past the call cap', async () => {
  const waits: number[] = [];
  const at = new Date(Date.now() + 5_000).toUTCString();
  const { fetch, seen } = scripted([
    { status: 429, headers: { 'retry-after': at } },
    { status: 200, body: { next: null, results: [] } },
  ]);
  const client = new CourtListener({
    token: 't',
    origin: ORIGIN,
    maxCalls: 2,
    fetch,
    sleep: async (ms) => void waits.push(ms),
  });

  expect(await client.searchPage('ilnd', '2026-11-01')).toEqual({ hits: [] });
  expect(waits[0]).toBeGreaterThan(3_000);
  expect(waits[0]).toBeLessThanOrEqual(5_000);
  expect(client.calls).toBe(2);

  await expect(client.parties(1, isPlaintiff)).rejects.toBeInstanceOf(CallCapReachedError);
  expect(seen).toHaveLength(2);
});

it('an answer of another shape is an error naming the endpoint, not the token', async () => {
  const { fetch } = scripted([{ status: 200, body: { results: [{ caseName: 'no docket id' }] } }]);
  const client = new CourtListener({ token: 'secret-tok', origin: ORIGIN, maxCalls: 5, fetch });

  const error = (await client.searchPage('ilnd', '2026-11-01').catch((e: unknown) => e)) as Error;

  expect(error.message).toBe(`${ORIGIN}/api/rest/v4/search/: unreadable answer (results.0.docket_id)`);
});
