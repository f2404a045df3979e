/**
 * A local stand-in for CourtListener's REST API v4 (the remote service has no local form): the search API
 * (`/api/rest/v4/search/`, type r) and the parties API (`/api/rest/v4/parties/`) answering in their documented JSON
 * shapes with cursor pagination (`next`), a token checked on every request, and the faults a docket job must survive:
 * 429 with Retry-After, a failing endpoint, a docket whose parties are not there yet. It records what it was asked.
 *
 * The search filters by court, filed_after and nature_of_suit as CourtListener does; it does not apply `q` (it
 * records it), so the job's own Schedule A rule is what decides which captions count.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeParty {
  name: string;
  types: string[];
}

export interface FakeDocket {
  docketId: number;
  caseName: string;
  docketNumber: string;
  courtId: string;
  dateFiled: string;
  suitNature?: string;
  /** Empty: RECAP has no parties for the docket yet. */
  parties: FakeParty[];
}

export interface SeenRequest {
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
}

export interface FakeCourtListener {
  origin: string;
  dockets: FakeDocket[];
  /** Results per search page (CourtListener's is 20). */
  searchPageSize: number;
  /** Answer the next n requests with 429 and this Retry-After. */
  throttle(n: number, retryAfter: string): void;
  /** Answer every parties request of this docket with 500 (undefined: none). */
  failingPartiesOf: number | undefined;
  requests: SeenRequest[];
  /** The dockets whose parties were asked for, in order. */
  partiesAsked(): number[];
  close(): Promise<void>;
}

const COURT_NAMES: Record<string, [string, string]> = {
  ilnd: ['District Court, N.D. Illinois', 'N.D. Ill.'],
  flsd: ['District Court, S.D. Florida', 'S.D. Fla.'],
};

function searchResult(origin: string, docket: FakeDocket) {
  const [court, citation] = COURT_NAMES[docket.courtId] ?? [docket.courtId, docket.courtId];
  return {
    absolute_url: `/docket/${docket.docketId}/case/`,
    assignedTo: 'Judge Example',
    assigned_to_id: null,
    attorney: [],
    attorney_id: [],
    caseName: docket.caseName,
    case_name_full: '',
    cause: '15:1114 Trademark Infringement',
    chapter: null,
    court,
    court_citation_string: citation,
    court_exact: docket.courtId,
    court_id: docket.courtId,
    dateArgued: null,
    dateFiled: docket.dateFiled,
    dateTerminated: null,
    docketNumber: docket.docketNumber,
    docket_absolute_url: `${origin}/docket/${docket.docketId}/case/`,
    docket_id: docket.docketId,
    firm: [],
    firm_id: [],
    jurisdictionType: 'Federal question',
    juryDemand: 'None',
    pacer_case_id: String(docket.docketId * 7),
    party: docket.parties.map((p) => p.name),
    party_id: docket.parties.map((_, i) => docket.docketId * 100 + i),
    referredTo: '',
    referred_to_id: null,
    suitNature: docket.suitNature ?? '840 Trademark',
    trustee_str: '',
    meta: { timestamp: '2026-11-21T00:00:00Z', date_created: '2026-11-21T00:00:00Z', more_docs: false },
    recap_documents: [],
  };
}

function partyResult(origin: string, docket: FakeDocket, party: FakeParty, index: number) {
  const id = docket.docketId * 100 + index;
  return {
    resource_uri: `${origin}/api/rest/v4/parties/${id}/`,
    id,
    attorneys: [],
    party_types: party.types.map((name) => ({
      docket: `${origin}/api/rest/v4/dockets/${docket.docketId}/`,
      docket_id: docket.docketId,
      name,
      date_terminated: null,
      extra_info: '',
      highest_offense_level_opening: '',
      highest_offense_level_terminated: '',
      criminal_counts: [],
      criminal_complaints: [],
    })),
    date_created: '2026-11-21T00:00:00Z',
    date_modified: '2026-11-21T00:00:00Z',
    name: party.name,
    extra_info: '',
  };
}

/** A page of `items` from the offset in `cursor`, with the URL of the next page (the same query, the next cursor). */
function paged<T>(url: URL, origin: string, items: readonly T[], pageSize: number) {
  const offset = Number(Buffer.from(url.searchParams.get('cursor') ?? 'MA', 'base64url').toString()) || 0;
  const page = items.slice(offset, offset + pageSize);
  let next: string | null = null;
  if (offset + pageSize < items.length) {
    const following = new URL(url.pathname, origin);
    for (const [key, value] of url.searchParams) if (key !== 'cursor') following.searchParams.set(key, value);
    following.searchParams.set('cursor', Buffer.from(String(offset + pageSize)).toString('base64url'));
    next = following.toString();
  }
  return { page, next };
}

export async function startFakeCourtListener(token: string): Promise<FakeCourtListener> {
  const requests: SeenRequest[] = [];
  let throttled = 0;
  let retryAfter = '1';
  let origin = '';
  const fake = {
    dockets: [] as FakeDocket[],
    searchPageSize: 20,
    failingPartiesOf: undefined as number | undefined,
  };

  const send = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: request.headers.authorization,
    });
    if (request.headers.authorization !== `Token ${token}`) {
      send(response, 401, { detail: 'Invalid token.' });
      return;
    }
    if (throttled > 0) {
      throttled--;
      send(
        response,
        429,
        { detail: `Request was throttled. Expected available in ${retryAfter} seconds.` },
        {
          'retry-after': retryAfter,
        },
      );
      return;
    }
    if (url.pathname === '/api/rest/v4/search/') {
      const q = url.searchParams;
      const nature = q.get('nature_of_suit');
      const found = fake.dockets
        .filter((d) => d.courtId === q.get('court'))
        .filter((d) => d.dateFiled >= (q.get('filed_after') ?? ''))
        .filter((d) => !nature || (d.suitNature ?? '840 Trademark').split(' ').includes(nature))
        .sort((a, b) => a.dateFiled.localeCompare(b.dateFiled) || a.docketId - b.docketId);
      const { page, next } = paged(url, origin, found, fake.searchPageSize);
      send(response, 200, {
        count: found.length,
        document_count: 0,
        next,
        previous: null,
        results: page.map((d) => searchResult(origin, d)),
      });
      return;
    }
    if (url.pathname === '/api/rest/v4/parties/') {
      const docketId = Number(url.searchParams.get('docket'));
      if (docketId === fake.failingPartiesOf) {
        send(response, 500, { detail: 'Server Error' });
        return;
      }
      const docket = fake.dockets.find((d) => d.docketId === docketId);
      const parties = docket ? docket.parties.map((p, i) => partyResult(origin, docket, p, i)) : [];
      const { page, next } = paged(url, origin, parties, 20);
      send(response, 200, { next, previous: null, results: page });
      return;
    }
    send(response, 404, { detail: 'Not found.' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(fake, {
    origin,
    requests,
    throttle(n: number, value: string) {
      throttled = n;
      retryAfter = value;
    },
    partiesAsked: () =>
      requests.filter((r) => r.path === '/api/rest/v4/parties/' && r.authorization).map((r) => Number(r.query.docket)),
    async close() {
      server.close();
      await once(server, 'close');
    },
  });
}
