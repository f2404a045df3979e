/**
 * What `GET /v1/status` says: per market and source, the newest complete batch (its data date and id), how much
 * is held, and the state of the scheduled jobs that keep the source current (shared/data-jobs/jobs.ts).
 *
 * readStatusFacts reads the stores (the newest batches, each market's serial filter, the TRO list, the jobs'
 * state: never the marks themselves); statusBody turns what was read into the response and reads nothing.
 */
import {
  DATA_JOB_DEFINITIONS,
  DATA_JOBS,
  type DataJobName,
  type DataJobState,
  isOverdue,
} from '../../shared/data-jobs/jobs';
import { MARKETS, type Market } from '../../shared/marks/mark-record';
import type { TroEntry } from '../../shared/marks/tro-csv';
import type { DataBatch, DataBatchStore, DataJobStore, DataKind, KeyFilterStore, TroStore } from '../../shared/ports';

/** The sources of each market, in the order the response lists them. The TRO list is of US court cases. */
export const MARKET_SOURCES: Readonly<Record<Market, readonly DataKind[]>> = {
  US: ['marks', 'tro', 'logos'],
  CN: ['marks', 'logos'],
};

/** Which source each data job keeps current (its market is the job's own). */
export const JOB_SOURCE: Readonly<Record<DataJobName, DataKind>> = {
  'uspto-daily': 'marks',
  'uspto-backfile': 'marks',
  'tro-docket': 'tro',
};

/** The longest last_error shown, in characters. */
export const MAX_ERROR_CHARS = 300;

export interface StatusJob {
  name: DataJobName;
  description: string;
  last_success_at: string | null;
  last_attempt_at: string | null;
  applied_through: string | null;
  overdue: boolean;
  last_error: string | null;
}

interface SourceBase {
  data_as_of: string | null;
  batch: string | null;
  jobs: StatusJob[];
}

export type StatusSource =
  | ({ source: 'marks'; records: number | null } & SourceBase)
  | ({ source: 'tro'; brands: number; cases: number } & SourceBase)
  | ({ source: 'logos' } & SourceBase);

export interface StatusBody {
  as_of: string;
  markets: { market: Market; sources: StatusSource[] }[];
}

/** What the stores held when they were read. */
export interface StatusFacts {
  /** The newest complete batch of each market and source that has one. */
  batches: readonly Pick<DataBatch, 'market' | 'kind' | 'batchId' | 'dataAsOf'>[];
  /** The count of each market's serial filter; a market with no filter saved is absent. */
  serials: Partial<Record<Market, number>>;
  /** The TRO list (one entry per brand). */
  tro: readonly Pick<TroEntry, 'caseNumbers'>[];
  /** The jobs that have run at least once. */
  jobs: readonly DataJobState[];
}

export interface StatusStores {
  batches: DataBatchStore;
  keyFilters: KeyFilterStore;
  tro: TroStore;
  jobs: Pick<DataJobStore, 'all'>;
}

export async function readStatusFacts(stores: StatusStores): Promise<StatusFacts> {
  const pairs = MARKETS.flatMap((market) => MARKET_SOURCES[market].map((kind) => ({ market, kind })));
  const [batches, serials, tro, jobs] = await Promise.all([
    Promise.all(pairs.map(({ market, kind }) => stores.batches.latestComplete(market, kind))),
    Promise.all(
      MARKETS.map(async (market) => [market, (await stores.keyFilters.load(market, 'serials'))?.count] as const),
    ),
    stores.tro.all(),
    stores.jobs.all(),
  ]);
  return {
    batches: batches.filter((b): b is DataBatch => b !== undefined),
    serials: Object.fromEntries(serials.filter(([, count]) => count !== undefined)),
    tro,
    jobs,
  };
}

export function statusBody(facts: StatusFacts, now: Date): StatusBody {
  const stateOf = new Map(facts.jobs.map((state) => [state.job, state]));
  return {
    as_of: now.toISOString(),
    markets: MARKETS.map((market) => ({
      market,
      sources: MARKET_SOURCES[market].map((kind): StatusSource => {
        const batch = facts.batches.find((b) => b.market === market && b.kind === kind);
        const newest = { data_as_of: batch?.dataAsOf ?? null, batch: batch?.batchId ?? null };
        const jobs = DATA_JOBS.filter((name) => jobKeeps(name, market, kind)).map((name) =>
          jobView(name, stateOf.get(name), now),
        );
        if (kind === 'marks') return { source: kind, ...newest, records: facts.serials[market] ?? null, jobs };
        if (kind === 'tro') {
          const cases = new Set(facts.tro.flatMap((entry) => entry.caseNumbers));
          return { source: kind, ...newest, brands: facts.tro.length, cases: cases.size, jobs };
        }
        return { source: kind, ...newest, jobs };
      }),
    })),
  };
}

function jobKeeps(name: DataJobName, market: Market, kind: DataKind): boolean {
  return DATA_JOB_DEFINITIONS[name].market === market && JOB_SOURCE[name] === kind;
}

function jobView(name: DataJobName, state: DataJobState | undefined, now: Date): StatusJob {
  const definition = DATA_JOB_DEFINITIONS[name];
  return {
    name,
    description: definition.source,
    last_success_at: state?.lastSuccessAt ?? null,
    last_attempt_at: state?.lastAttemptAt ?? null,
    applied_through: state?.appliedThrough ?? null,
    overdue: isOverdue(state, definition, now),
    last_error: state?.lastOutcome === 'failed' ? shortened(state.lastError ?? 'failed') : null,
  };
}

/** At most MAX_ERROR_CHARS characters (code points), the last one an ellipsis when the message was cut. */
function shortened(message: string): string {
  const chars = Array.from(message);
  return chars.length <= MAX_ERROR_CHARS ? message : `${chars.slice(0, MAX_ERROR_CHARS - 1).join('')}…`;
}
