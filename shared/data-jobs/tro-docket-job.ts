/**
 * The TRO list, from the dockets: new Schedule A trademark cases found on CourtListener, each plaintiff mapped to the
 * marks it owns, those marks' texts added to the TRO list, with nobody typing a brand.
 *
 * Input: CourtListener (a token, a per-run call cap), the mark store (its owner index: `o:` keys), the TRO list, the
 * job's state. Output: TRO entries merged into the list, the run recorded, a summary.
 *
 *  1. Window: cases filed from three days before the last filing date fully processed (a docket indexed late is still
 *     seen), or the last 30 days on a first run, to today.
 *  2. For each court (N.D. Ill. first): the search's pages, oldest first. A case whose caption is not a Schedule A
 *     caption is ignored; one the TRO list already holds (its case number in that court), or one seen earlier whose
 *     plaintiffs own no marks, is skipped without a call.
 *  3. For each new case: its parties. A docket without parties yet (RECAP has not got them) is asked again next run,
 *     and the data date stays before it. Each plaintiff's owner key (`o:<normalizeOwner>`) finds the marks it owns;
 *     only registered and pending marks count. Two owner spellings with one key ("SPIN MASTER LTD.", "Spin Master,
 *     Inc.") both count, and the run says so; a plaintiff that owns nothing is named in the run's detail.
 *  4. Write: one entry per mark text, merged with the list's entry of the same brand (the store replaces whole): case
 *     numbers, plaintiffs, courts and sources joined, the newest filing date kept. Under the TRO list's lock, so a
 *     CSV ingest cannot interleave. A run that finds nothing new writes nothing.
 *  5. The call cap or the deadline stops the run where it is (succeeded: the rest is the next run's, from the same
 *     window); a failed call stops it too (failed), what was found before it still written.
 *     The written list is announced as a completed batch (the watched catalogues are re-screened on it).
 *  6. Record the run: the data date is the day before the oldest case left to do, or yesterday when none is; it
 *     never moves back. A case still without parties after GIVE_UP_DAYS no longer holds it back.
 */
import { mapWithConcurrency } from '../async/concurrency';
import type { IngestStores } from '../ingest/ingest-batch';
import { normalizeText, ownerKeyOf } from '../marks/lookup-keys';
import { batchIdOf } from '../marks/mark-record';
import { troBrandKey, type TroEntry } from '../marks/tro-csv';
import type { DataJobStore, MarkSummary, TroBrand } from '../ports';
import { CallCapReachedError, type CourtListener, type DocketHit } from './court-listener';
import type { DataJobName } from './jobs';
import { isPlaintiff, isScheduleACaseName } from './schedule-a';

export const TRO_DOCKET_JOB: DataJobName = 'tro-docket';
/** N.D. Illinois first: most Schedule A cases are filed there. */
export const DEFAULT_TRO_COURTS: readonly string[] = ['ilnd', 'flsd', 'pawd', 'nysd'];
export const TRO_DOCKET_SOURCE = 'courtlistener';
const FIRST_RUN_DAYS = 30;
const LOOKBACK_DAYS = 3;
/** A docket still without parties this many days after its filing date stops holding the data date back. */
const GIVE_UP_DAYS = 14;
/** Names shown in the run's detail, at most. */
const NAMES_SHOWN = 5;
/** Marks of one plaintiff whose owner is read to tell its owner spellings apart. */
const OWNERS_READ = 50;
const LOCK_SECONDS = 300;

export interface TroDocketJobDeps {
  courtListener: Pick<CourtListener, 'searchPage' | 'parties' | 'calls'>;
  stores: Pick<IngestStores, 'marks' | 'tro' | 'batches' | 'now' | 'events'>;
  jobs: DataJobStore;
  /** Who holds the TRO list's lock while the run writes. */
  holder: string;
  /** No call is started after this instant (epoch ms). */
  deadline?: number;
  log?: (message: string, data: Record<string, unknown>) => void;
}

export interface TroDocketJobOptions {
  /** CourtListener court ids, searched in this order (default DEFAULT_TRO_COURTS). */
  courts?: readonly string[];
  /** How far back a first run looks (default 30 days). */
  firstRunDays?: number;
  /** Days before the last processed filing date searched again (default 3). */
  lookbackDays?: number;
}

export type CaseAction = 'flagged' | 'no-marks' | 'no-parties' | 'deferred';

export interface CaseOutcome {
  court: string;
  docketId: number;
  docketNumber: string;
  caseName: string;
  dateFiled?: string;
  action: CaseAction;
  plaintiffs: string[];
  /** The brands (mark texts) the case added to the TRO list. */
  brands: string[];
}

export interface CourtOutcome {
  courtId: string;
  pages: number;
  /** All of the window's pages were read. */
  complete: boolean;
}

export interface TroDocketCounts {
  /** Search results read. */
  searched: number;
  /** Results whose caption is not a Schedule A caption. */
  ignored: number;
  /** Schedule A cases already held, or already seen without marks. */
  alreadyHeld: number;
  /** Schedule A cases whose parties were asked for. */
  newCases: number;
  /** Of those, dockets without parties (or without a plaintiff) yet: asked again next run. */
  withoutParties: number;
  /** Cases not reached (call cap, deadline, or a failed call). */
  deferred: number;
  plaintiffsMatched: number;
  plaintiffsUnmatched: number;
  /** Plaintiffs whose marks are held under more than one owner spelling. */
  ownersAmbiguous: number;
  /** Distinct marks whose text went into the TRO list. */
  marksFlagged: number;
  /** TRO entries written (new or merged). */
  brandsWritten: number;
  /** CourtListener requests sent, retries included. */
  calls: number;
}

export interface TroDocketSummary {
  job: DataJobName;
  from: string;
  to: string;
  courts: CourtOutcome[];
  cases: CaseOutcome[];
  counts: TroDocketCounts;
  unmatchedPlaintiffs: string[];
  ambiguousPlaintiffs: string[];
  /** The run stopped at the call cap or the deadline. */
  stopped?: 'call-cap' | 'deadline';
  appliedThrough?: string;
  outcome: 'succeeded' | 'failed';
  error?: string;
}

interface Draft {
  brand: string;
  plaintiffs: Set<string>;
  caseNumbers: Set<string>;
  courts: Set<string>;
  lastFilingDate?: string;
  serials: Set<string>;
}

class DeadlineReached extends Error {}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (day: string, days: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
const isCurrent = (mark: MarkSummary) => mark.statusCategory === 'registered' || mark.statusCategory === 'pending';
const union = (...lists: (readonly string[] | undefined)[]) => [...new Set(lists.flatMap((list) => list ?? []))];
const newest = (...days: (string | undefined)[]) =>
  days
    .filter((day): day is string => day !== undefined)
    .sort()
    .at(-1);

/**
 * The list's entry for a brand with what the dockets found added (TroStore.upsert replaces an entry whole): case
 * numbers, plaintiffs, courts and sources joined, caseCount the distinct case numbers (at least 1), the newest
 * filing date. Checked against the docket only if the stored entry was too (TroEntry.checkedAgainstDocket).
 */
export function mergeTroEntry(stored: TroEntry | undefined, found: TroEntry): TroEntry {
  const caseNumbers = union(stored?.caseNumbers, found.caseNumbers);
  const lastFilingDate = newest(stored?.lastFilingDate, found.lastFilingDate);
  return {
    brand: stored?.brand ?? found.brand,
    plaintiffs: union(stored?.plaintiffs, found.plaintiffs),
    caseCount: Math.max(caseNumbers.length, 1),
    caseNumbers,
    courts: union(stored?.courts, found.courts),
    ...(lastFilingDate ? { lastFilingDate } : {}),
    sources: union(stored?.sources, found.sources),
    checkedAgainstDocket: (stored?.checkedAgainstDocket ?? true) && found.checkedAgainstDocket,
  };
}

/** The cases seen in earlier runs whose plaintiffs owned no marks: `<docket id>@<filing date>`, space-separated. */
function seenWithoutMarks(detail: Record<string, number | string> | undefined): Map<number, string> {
  const seen = new Map<number, string>();
  const text = detail?.seenWithoutMarks;
  if (typeof text !== 'string') return seen;
  for (const token of text.split(' ')) {
    const match = /^(\d+)@(\d{4}-\d{2}-\d{2})$/.exec(token);
    if (match) seen.set(Number(match[1]), match[2]!);
  }
  return seen;
}

class TroDocketRun {
  readonly counts: TroDocketCounts = {
    searched: 0,
    ignored: 0,
    alreadyHeld: 0,
    newCases: 0,
    withoutParties: 0,
    deferred: 0,
    plaintiffsMatched: 0,
    plaintiffsUnmatched: 0,
    ownersAmbiguous: 0,
    marksFlagged: 0,
    brandsWritten: 0,
    calls: 0,
  };
  readonly cases: CaseOutcome[] = [];
  readonly courts: CourtOutcome[] = [];
  readonly unmatched: string[] = [];
  readonly ambiguous: string[] = [];
  /** Filing dates of cases left to do: the data date stays before the oldest. */
  readonly pending: string[] = [];
  /** Filing dates of dockets without parties yet: they hold the data date back for GIVE_UP_DAYS at most. */
  readonly awaitingParties: string[] = [];
  readonly drafts = new Map<string, Draft>();
  private readonly held = new Map<string, Set<string>>();
  /** Cases this run has dealt with (flagged, without marks, or without parties yet). */
  private readonly done = new Set<number>();

  constructor(
    private readonly deps: TroDocketJobDeps,
    readonly from: string,
    stored: readonly TroBrand[],
    readonly withoutMarks: Map<number, string>,
  ) {
    for (const entry of stored)
      for (const caseNumber of entry.caseNumbers) {
        const courts = this.held.get(caseNumber) ?? new Set<string>();
        for (const court of entry.courts) courts.add(court);
        this.held.set(caseNumber, courts);
      }
  }

  private isHeld(hit: DocketHit): boolean {
    if (this.withoutMarks.has(hit.docketId)) return true;
    const courts = hit.docketNumber ? this.held.get(hit.docketNumber) : undefined;
    return courts !== undefined && (courts.size === 0 || courts.has(hit.court));
  }

  private checkDeadline(): void {
    if (this.deps.deadline !== undefined && Date.now() > this.deps.deadline) throw new DeadlineReached();
  }

  /** Reads the court's pages of the window; returns normally when all were read. */
  async searchCourt(courtId: string): Promise<void> {
    const court: CourtOutcome = { courtId, pages: 0, complete: false };
    this.courts.push(court);
    let next: string | undefined;
    let lastDaySeen = this.from;
    try {
      do {
        this.checkDeadline();
        const page = await this.deps.courtListener.searchPage(courtId, this.from, next);
        court.pages++;
        this.counts.searched += page.hits.length;
        next = page.next;
        for (const hit of page.hits) if (hit.dateFiled && hit.dateFiled > lastDaySeen) lastDaySeen = hit.dateFiled;
        for (const [index, hit] of page.hits.entries()) {
          try {
            await this.takeHit(hit);
          } catch (error) {
            // This case and the rest of the page are left to do.
            for (const rest of page.hits.slice(index)) this.defer(rest);
            throw error;
          }
        }
      } while (next);
      court.complete = true;
    } finally {
      // Pages not read hold cases filed on or after the last day of the pages read (the search is oldest first).
      if (!court.complete) this.pending.push(lastDaySeen);
    }
  }

  private defer(hit: DocketHit): void {
    if (!isScheduleACaseName(hit.caseName) || this.isHeld(hit) || this.done.has(hit.docketId)) return;
    this.counts.deferred++;
    this.pending.push(hit.dateFiled ?? this.from);
    this.cases.push({ ...this.caseOf(hit), action: 'deferred' });
  }

  private caseOf(hit: DocketHit): Omit<CaseOutcome, 'action'> {
    return {
      court: hit.court,
      docketId: hit.docketId,
      docketNumber: hit.docketNumber,
      caseName: hit.caseName,
      ...(hit.dateFiled ? { dateFiled: hit.dateFiled } : {}),
      plaintiffs: [],
      brands: [],
    };
  }

  private async takeHit(hit: DocketHit): Promise<void> {
    if (!isScheduleACaseName(hit.caseName)) {
      this.counts.ignored++;
      return;
    }
    if (this.isHeld(hit) || this.done.has(hit.docketId)) {
      this.counts.alreadyHeld++;
      return;
    }
    this.checkDeadline();
    const { parties } = await this.deps.courtListener.parties(hit.docketId, isPlaintiff);
    this.counts.newCases++;
    const plaintiffs = [...new Set(parties.filter(isPlaintiff).map((party) => party.name))];
    const outcome: CaseOutcome = { ...this.caseOf(hit), plaintiffs, action: 'no-parties' };
    if (plaintiffs.length === 0) {
      this.counts.withoutParties++;
      this.awaitingParties.push(hit.dateFiled ?? this.from);
    } else {
      outcome.brands = await this.flagMarksOf(hit, plaintiffs);
      outcome.action = outcome.brands.length > 0 ? 'flagged' : 'no-marks';
      if (outcome.action === 'no-marks') this.withoutMarks.set(hit.docketId, hit.dateFiled ?? this.from);
    }
    this.done.add(hit.docketId);
    this.cases.push(outcome);
    this.deps.log?.('tro case', { ...outcome });
  }

  /** Each plaintiff's current marks, drafted into TRO entries; returns the brands drafted for this case. */
  private async flagMarksOf(hit: DocketHit, plaintiffs: readonly string[]): Promise<string[]> {
    const keyOf = new Map(plaintiffs.map((name) => [name, ownerKeyOf(name)]));
    const keys = [...new Set([...keyOf.values()].filter((key): key is string => key !== undefined))];
    const found = keys.length > 0 ? await this.deps.stores.marks.lookup('US', keys) : new Map<string, MarkSummary[]>();
    const brands = new Set<string>();
    for (const plaintiff of plaintiffs) {
      const key = keyOf.get(plaintiff);
      const marks = (key ? (found.get(key) ?? []) : []).filter(
        (mark) => isCurrent(mark) && normalizeText(mark.markText) !== '',
      );
      if (marks.length === 0) {
        this.counts.plaintiffsUnmatched++;
        this.unmatched.push(plaintiff);
        continue;
      }
      this.counts.plaintiffsMatched++;
      const owners = await this.ownerSpellings(marks);
      if (owners.length > 1) {
        this.counts.ownersAmbiguous++;
        this.ambiguous.push(`${plaintiff} (${owners.join('; ')})`);
      }
      for (const mark of marks) {
        const brand = mark.markText.trim();
        const brandKey = troBrandKey(brand);
        const draft: Draft = this.drafts.get(brandKey) ?? {
          brand,
          plaintiffs: new Set(),
          caseNumbers: new Set(),
          courts: new Set(),
          serials: new Set(),
        };
        this.drafts.set(brandKey, draft);
        draft.plaintiffs.add(plaintiff);
        if (hit.docketNumber) draft.caseNumbers.add(hit.docketNumber);
        draft.courts.add(hit.court);
        draft.serials.add(mark.serial);
        const lastFilingDate = newest(draft.lastFilingDate, hit.dateFiled);
        if (lastFilingDate) draft.lastFilingDate = lastFilingDate;
        brands.add(draft.brand);
      }
    }
    return [...brands];
  }

  /** The distinct owner names (by normalizeText) of up to OWNERS_READ of the marks, as first written. */
  private async ownerSpellings(marks: readonly MarkSummary[]): Promise<string[]> {
    const records = await mapWithConcurrency(marks.slice(0, OWNERS_READ), 8, (mark) =>
      this.deps.stores.marks.getMark('US', mark.serial),
    );
    const spellings = new Map<string, string>();
    for (const record of records) {
      if (!record?.owner) continue;
      const folded = normalizeText(record.owner);
      if (!spellings.has(folded)) spellings.set(folded, record.owner);
    }
    return [...spellings.values()];
  }

  entries(): TroEntry[] {
    return [...this.drafts.values()].map((draft) => ({
      brand: draft.brand,
      plaintiffs: [...draft.plaintiffs],
      caseCount: Math.max(draft.caseNumbers.size, 1),
      caseNumbers: [...draft.caseNumbers],
      courts: [...draft.courts],
      ...(draft.lastFilingDate ? { lastFilingDate: draft.lastFilingDate } : {}),
      sources: [TRO_DOCKET_SOURCE],
      checkedAgainstDocket: true,
    }));
  }
}

/** Merges the run's entries into the list under the TRO list's lock, recorded as a batch of the day. */
async function writeEntries(deps: TroDocketJobDeps, entries: readonly TroEntry[], today: string): Promise<number> {
  const { batches, tro } = deps.stores;
  const now = deps.stores.now();
  await batches.acquireLock('US', 'tro', deps.holder, now, LOCK_SECONDS);
  try {
    const stored = new Map((await tro.all()).map((entry) => [entry.brandKey, entry]));
    const merged = entries.map((entry) => {
      const previous = stored.get(troBrandKey(entry.brand));
      if (!previous) return entry;
      const { brandKey: _brandKey, batchDate: _batchDate, ...kept } = previous;
      return mergeTroEntry(kept, entry);
    });
    const batchId = batchIdOf(today, TRO_DOCKET_SOURCE);
    await batches.begin({
      market: 'US',
      kind: 'tro',
      batchId,
      source: TRO_DOCKET_SOURCE,
      dataAsOf: today,
      startedAt: now.toISOString(),
    });
    const written = await tro.upsert(merged, today);
    await batches.complete(
      { market: 'US', kind: 'tro', batchId },
      { read: entries.length, written },
      deps.stores.now(),
    );
    // A day's runs share the batch id of the list's day; each run that wrote is announced as its own (by its start),
    // so that what a later run of the day changes raises its own alerts.
    await deps.stores.events?.batchCompleted({
      market: 'US',
      kind: 'tro',
      batchId: `${batchId}@${now.toISOString()}`,
      dataAsOf: today,
    });
    return written;
  } finally {
    await batches.releaseLock('US', 'tro', deps.holder).catch(() => undefined);
  }
}

/** Each court in turn, until one stops the run (the call cap, the deadline, a failed call). */
async function searchCourts(run: TroDocketRun, courts: readonly string[], summary: TroDocketSummary): Promise<void> {
  for (const [index, courtId] of courts.entries()) {
    try {
      await run.searchCourt(courtId);
    } catch (error) {
      if (error instanceof CallCapReachedError) summary.stopped = 'call-cap';
      else if (error instanceof DeadlineReached) summary.stopped = 'deadline';
      else {
        summary.outcome = 'failed';
        summary.error = `${courtId}: ${(error as Error).message}`;
      }
      // The courts not searched are left from the window's start.
      for (const rest of courts.slice(index + 1)) {
        run.courts.push({ courtId: rest, pages: 0, complete: false });
        run.pending.push(run.from);
      }
      return;
    }
  }
}

export async function runTroDocketJob(
  deps: TroDocketJobDeps,
  options: TroDocketJobOptions = {},
): Promise<TroDocketSummary> {
  const startedAt = deps.stores.now();
  const today = dayOf(startedAt);
  const state = await deps.jobs.get(TRO_DOCKET_JOB);
  const from = state?.appliedThrough
    ? addDays(state.appliedThrough, -(options.lookbackDays ?? LOOKBACK_DAYS))
    : addDays(today, -(options.firstRunDays ?? FIRST_RUN_DAYS));
  const remembered = new Map([...seenWithoutMarks(state?.lastDetail)].filter(([, day]) => day >= from));
  let stored: TroBrand[];
  try {
    stored = await deps.stores.tro.all();
  } catch (error) {
    await deps.jobs.recordRun({
      job: TRO_DOCKET_JOB,
      startedAt: startedAt.toISOString(),
      finishedAt: deps.stores.now().toISOString(),
      outcome: 'failed',
      ...(state?.appliedThrough ? { appliedThrough: state.appliedThrough } : {}),
      detail: {},
      error: `reading the TRO list: ${(error as Error).message}`.slice(0, 1000),
    });
    throw error;
  }
  const run = new TroDocketRun(deps, from, stored, remembered);
  const summary: TroDocketSummary = {
    job: TRO_DOCKET_JOB,
    from,
    to: today,
    courts: run.courts,
    cases: run.cases,
    counts: run.counts,
    unmatchedPlaintiffs: run.unmatched,
    ambiguousPlaintiffs: run.ambiguous,
    outcome: 'succeeded',
  };

  await searchCourts(run, options.courts ?? DEFAULT_TRO_COURTS, summary);
  run.counts.calls = deps.courtListener.calls;

  const entries = run.entries();
  run.counts.marksFlagged = new Set([...run.drafts.values()].flatMap((draft) => [...draft.serials])).size;
  let blocked = run.pending;
  if (entries.length > 0) {
    try {
      run.counts.brandsWritten = await writeEntries(deps, entries, today);
    } catch (error) {
      summary.outcome = 'failed';
      summary.error = [summary.error, `writing the TRO list: ${(error as Error).message}`].filter(Boolean).join('; ');
      // Nothing found this run is held: its cases are left to do.
      blocked = [...blocked, ...run.cases.filter((c) => c.action === 'flagged').map((c) => c.dateFiled ?? from)];
    }
  }

  const giveUpBefore = addDays(today, -GIVE_UP_DAYS);
  const oldestLeft = [...blocked, ...run.awaitingParties.filter((day) => day >= giveUpBefore)].sort().at(0);
  const through = oldestLeft === undefined ? addDays(today, -1) : addDays(oldestLeft, -1);
  summary.appliedThrough = newest(state?.appliedThrough, through);
  await record(deps, summary, startedAt, run);
  return summary;
}

async function record(
  deps: TroDocketJobDeps,
  summary: TroDocketSummary,
  startedAt: Date,
  run: TroDocketRun,
): Promise<void> {
  const withoutMarks = [...run.withoutMarks].map(([docketId, day]) => `${docketId}@${day}`).join(' ');
  await deps.jobs.recordRun({
    job: TRO_DOCKET_JOB,
    startedAt: startedAt.toISOString(),
    finishedAt: deps.stores.now().toISOString(),
    outcome: summary.outcome,
    ...(summary.appliedThrough ? { appliedThrough: summary.appliedThrough } : {}),
    detail: {
      ...summary.counts,
      stopped: summary.stopped ?? '',
      unmatchedPlaintiffs: summary.unmatchedPlaintiffs.slice(0, NAMES_SHOWN).join('; '),
      ambiguousPlaintiffs: summary.ambiguousPlaintiffs.slice(0, NAMES_SHOWN).join('; '),
      seenWithoutMarks: withoutMarks,
    },
    ...(summary.error ? { error: summary.error.slice(0, 1000) } : {}),
  });
}
