/**
 * CourtListener's REST API v4, as the TRO docket job reads it (docs/data-jobs.md, "TRO docket", records what was
 * checked and where):
 *   GET {origin}/api/rest/v4/search/?type=r&q=...&court=ilnd&filed_after=YYYY-MM-DD&nature_of_suit=840
 *       &order_by=dateFiled asc
 *     answer { count, next, previous, results: [ { docket_id, caseName, docketNumber, court_id,
 *     court_citation_string, dateFiled, suitNature, ... } ] }, `next` the cursor URL of the following page
 *   GET {origin}/api/rest/v4/parties/?docket=<id>&filter_nested_results=True&order_by=id
 *     answer { next, previous, results: [ { id, name, party_types: [ { docket_id, name: "Plaintiff", ... } ] } ] }
 * Every call carries `Authorization: Token <token>` (to CourtListener's own origin only) and goes through SourceHttp:
 * 429 waits what Retry-After asks (seconds or an HTTP date, within a bound), 5xx backs off, a few tries at most. The
 * token is never in a URL, a log line or an error message.
 *
 * Calls are counted: past `maxCalls` (retries and redirects included) no request is sent and CallCapReachedError
 * is thrown, so a run never spends more than its share of the token's daily allowance.
 */
import * as z from 'zod';
import { isCalendarDate } from '../marks/mark-record';
import { SourceHttp, SourceHttpError } from './source-http';

export const COURTLISTENER_ORIGIN = 'https://www.courtlistener.com';
/** PACER's nature-of-suit code for trademark cases. */
export const TRADEMARK_NATURE_OF_SUIT = '840';
/**
 * What the search asks for: cases whose caption may be a Schedule A caption. Only a first cut, to keep pages few:
 * the job decides with isScheduleACaseName (shared/data-jobs/schedule-a.ts).
 */
export const SCHEDULE_A_QUERY = 'caseName:(schedule OR unincorporated OR does)';
/** Party pages read for one docket at most, while its plaintiffs may continue on the next page. */
const MAX_PARTY_PAGES = 3;

/** The courts' short names, as the TRO list writes them (data/tro: "N.D. Ill."). */
export const COURT_NAMES: Readonly<Record<string, string>> = {
  ilnd: 'N.D. Ill.',
  flsd: 'S.D. Fla.',
  pawd: 'W.D. Pa.',
  nysd: 'S.D.N.Y.',
  ilsd: 'S.D. Ill.',
  ilcd: 'C.D. Ill.',
  nynd: 'N.D.N.Y.',
  txsd: 'S.D. Tex.',
};

export interface DocketHit {
  docketId: number;
  caseName: string;
  docketNumber: string;
  /** CourtListener's court id, e.g. `ilnd`. */
  courtId: string;
  /** The court's short name, e.g. `N.D. Ill.`. */
  court: string;
  /** YYYY-MM-DD, or undefined when the result has none. */
  dateFiled?: string;
}

export interface SearchPage {
  hits: DocketHit[];
  /** The following page's URL, absent on the last page. */
  next?: string;
}

export interface DocketParty {
  name: string;
  /** The party's roles in this docket, e.g. ["Plaintiff"]. */
  types: string[];
}

export interface DocketParties {
  parties: DocketParty[];
  /** Pages read. */
  pages: number;
}

/** The run's call allowance is spent: nothing was sent. Left for the next run. */
export class CallCapReachedError extends SourceHttpError {
  constructor(readonly cap: number) {
    super(COURTLISTENER_ORIGIN, undefined, `the run's cap of ${cap} CourtListener calls is reached`);
    this.name = 'CallCapReachedError';
  }
}

const dayOf = z
  .string()
  .nullish()
  .transform((value) => {
    const day = value?.slice(0, 10);
    return day && isCalendarDate(day) ? day : undefined;
  });

const searchAnswerSchema = z.object({
  next: z.string().nullish(),
  results: z.array(
    z.object({
      docket_id: z.number().int(),
      caseName: z.string().nullish(),
      docketNumber: z.string().nullish(),
      court_id: z.string().nullish(),
      court_citation_string: z.string().nullish(),
      dateFiled: dayOf,
    }),
  ),
});

const partiesAnswerSchema = z.object({
  next: z.string().nullish(),
  results: z.array(
    z.object({
      name: z.string().nullish(),
      party_types: z.array(z.object({ name: z.string().nullish(), docket_id: z.number().int().nullish() })).nullish(),
    }),
  ),
});

export interface CourtListenerOptions {
  token: string;
  origin?: string;
  /** Requests one run may send, retries and redirects included. */
  maxCalls: number;
  /** The longest Retry-After waited out; a longer one ends the run (default 90 s). */
  maxRetryAfterMs?: number;
  /** Tries per call (default 4). */
  attempts?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export class CourtListener {
  private readonly http: SourceHttp;
  private readonly origin: string;
  private sent = 0;

  constructor(private readonly options: CourtListenerOptions) {
    this.origin = new URL(options.origin ?? COURTLISTENER_ORIGIN).origin;
    this.http = new SourceHttp(this.origin, {
      headers: { authorization: `Token ${options.token}` },
      attempts: options.attempts ?? 4,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 90_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      onRequest: () => {
        if (this.sent >= this.options.maxCalls) throw new CallCapReachedError(this.options.maxCalls);
        this.sent++;
      },
    });
  }

  /** Requests sent so far. */
  get calls(): number {
    return this.sent;
  }

  /** Whether another request may be sent. */
  get canCall(): boolean {
    return this.sent < this.options.maxCalls;
  }

  /**
   * One page of the court's trademark cases filed on or after `filedAfter`, oldest first: the first page, or the
   * page at `next` (a URL a previous page gave).
   */
  async searchPage(courtId: string, filedAfter: string, next?: string): Promise<SearchPage> {
    const url = next ? this.ownUrl(next) : `/api/rest/v4/search/?${this.searchQuery(courtId, filedAfter)}`;
    const answer = searchAnswerSchema.safeParse(await this.http.getJson(url));
    if (!answer.success) throw this.unreadable('/api/rest/v4/search/', answer.error);
    return {
      hits: answer.data.results.map((result) => {
        const id = result.court_id ?? courtId;
        return {
          docketId: result.docket_id,
          caseName: result.caseName ?? '',
          docketNumber: (result.docketNumber ?? '').trim(),
          courtId: id,
          court: COURT_NAMES[id] ?? result.court_citation_string ?? id,
          ...(result.dateFiled ? { dateFiled: result.dateFiled } : {}),
        };
      }),
      ...(answer.data.next ? { next: answer.data.next } : {}),
    };
  }

  /**
   * The parties of a docket with their roles in it, oldest first (PACER lists the plaintiffs first). A further page
   * is read only while plaintiffs may continue on it, MAX_PARTY_PAGES at most. Empty when RECAP has no parties yet.
   */
  async parties(docketId: number, isPlaintiff: (party: DocketParty) => boolean): Promise<DocketParties> {
    const parties: DocketParty[] = [];
    let url: string | undefined =
      `/api/rest/v4/parties/?docket=${encodeURIComponent(String(docketId))}&filter_nested_results=True&order_by=id`;
    let pages = 0;
    while (url && pages < MAX_PARTY_PAGES) {
      const answer = partiesAnswerSchema.safeParse(await this.http.getJson(url));
      pages++;
      if (!answer.success) throw this.unreadable('/api/rest/v4/parties/', answer.error);
      const page = answer.data.results.flatMap((result): DocketParty[] => {
        const name = result.name?.replace(/\s+/g, ' ').trim();
        if (!name) return [];
        const types = (result.party_types ?? [])
          .filter((type) => type.docket_id === undefined || type.docket_id === null || type.docket_id === docketId)
          .flatMap((type) => (type.name ? [type.name.trim()] : []));
        return [{ name, types }];
      });
      parties.push(...page);
      const last = page.at(-1);
      const plaintiffsMayContinue = last === undefined || isPlaintiff(last) || !parties.some(isPlaintiff);
      url = answer.data.next && plaintiffsMayContinue ? this.ownUrl(answer.data.next) : undefined;
    }
    return { parties, pages };
  }

  private searchQuery(courtId: string, filedAfter: string): string {
    return new URLSearchParams({
      type: 'r',
      q: SCHEDULE_A_QUERY,
      court: courtId,
      filed_after: filedAfter,
      nature_of_suit: TRADEMARK_NATURE_OF_SUIT,
      order_by: 'dateFiled asc',
    }).toString();
  }

  /** A page URL the API gave: followed only on CourtListener's own origin (the token goes nowhere else). */
  private ownUrl(url: string): string {
    const parsed = new URL(url, this.origin);
    if (parsed.origin !== this.origin) {
      throw new SourceHttpError(parsed.origin, undefined, `a next page on another origin (${parsed.origin})`);
    }
    return parsed.toString();
  }

  private unreadable(path: string, error: z.ZodError): SourceHttpError {
    const issue = error.issues[0];
    const where = issue?.path.join('.') || 'the answer';
    return new SourceHttpError(`${this.origin}${path}`, 200, `${this.origin}${path}: unreadable answer (${where})`);
  }
}
