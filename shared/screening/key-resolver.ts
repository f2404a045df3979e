/**
 * Resolves the lookup keys of a whole batch of titles at once: a run whose key entries are fresh costs nothing; a
 * key the market's key filter knows does not exist costs nothing; the rest go to the mark store in one lookup per
 * market (BatchGetItem rounds in DynamoDB). Entries are kept in a bounded cache for `cacheTtlMs`, which is also how
 * long a completed data batch may go unseen by a warm instance.
 */
import { LRUCache } from 'lru-cache';
import type { KeyFilter } from '../marks/key-filter';
import type { Market } from '../marks/mark-record';
import type { MarkStore, MarkSummary } from '../ports';
import type { Candidate, Run } from './candidates';
import { NO_MARKS, type KeyEntry } from './run-matches';

export interface KeySources {
  marks: Pick<MarkStore, 'lookup'>;
  /** Which keys exist in a market; without one, every key is looked up. */
  keyFilter?: (market: Market) => Promise<KeyFilter | undefined>;
}

export interface KeyCacheOptions {
  /** How long a fetched key entry is trusted (default 5 s). */
  cacheTtlMs?: number;
  /** Key entries kept per market, least recently used dropped first (default 500,000). */
  cacheEntries?: number;
}

export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;

export class KeyResolver {
  private readonly cache: Record<Market, LRUCache<string, KeyEntry>>;
  private batches = 0;
  /** Mark store lookups made, for the benchmark's round-trip count. */
  lookups = 0;

  constructor(
    private readonly sources: KeySources,
    private readonly options: KeyCacheOptions = {},
  ) {
    const max = options.cacheEntries ?? 500_000;
    this.cache = { US: new LRUCache({ max }), CN: new LRUCache({ max }) };
  }

  /** Fetched entries older than this are stale, for a batch that starts at `now`. */
  oldestFresh(now: number): number {
    return now - (this.options.cacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS);
  }

  /** Every key entry the run needs was fetched (or known absent) after `oldest`. */
  isFresh(run: Run, oldest: number): boolean {
    return run.entriesAt > oldest;
  }

  /** When the run's key entries go stale. */
  staleFrom(run: Run): number {
    return run.entriesAt + (this.options.cacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS);
  }

  /** Brings every candidate run's key entries up to date, for a batch that starts at `now`. */
  async resolve(candidateLists: readonly (readonly Candidate[])[], now = Date.now()): Promise<void> {
    const oldest = this.oldestFresh(now);
    const batch = ++this.batches;
    const pending: Run[] = [];
    /** The fuzzy keys of each pending run, when they are fetched in this batch (undefined when still fresh). */
    const pendingFuzzy: (string[] | undefined)[] = [];
    const wanted: Record<Market, Set<string>> = { US: new Set(), CN: new Set() };
    for (const candidates of candidateLists) {
      for (const { run } of candidates) {
        if (run.batch === batch) continue;
        run.batch = batch;
        if (this.isFresh(run, oldest)) continue;
        pending.push(run);
        if (!fresh(run.usExact, oldest)) wanted.US.add(run.exactKey);
        const fuzzy = run.usFuzzyAt > oldest ? undefined : run.fuzzyKeys();
        pendingFuzzy.push(fuzzy);
        if (fuzzy) for (const key of fuzzy) wanted.US.add(key);
        if (run.cjk && !fresh(run.cnExact, oldest)) wanted.CN.add(run.exactKey);
      }
    }
    if (pending.length === 0) return;
    const entries: Record<Market, Map<string, KeyEntry>> = { US: new Map(), CN: new Map() };
    await Promise.all(
      (['US', 'CN'] as const).map((market) => this.fetch(market, wanted[market], entries[market], now, oldest)),
    );
    for (let i = 0; i < pending.length; i++) {
      const run = pending[i]!;
      run.usExact = entries.US.get(run.exactKey) ?? run.usExact;
      const fuzzy = pendingFuzzy[i];
      if (fuzzy) {
        // Only the keys that hold marks are kept; a key known absent is as good as fetched now.
        const held: KeyEntry[] = [];
        let at = Number.POSITIVE_INFINITY;
        for (const key of fuzzy) {
          const entry = entries.US.get(key)!;
          if (entry.at < at) at = entry.at;
          if (entry.marks.length > 0) held.push(entry);
        }
        run.usFuzzy = held.length > 0 ? held : NO_ENTRIES;
        run.usFuzzyAt = at;
      }
      if (run.cjk) run.cnExact = entries.CN.get(run.exactKey) ?? run.cnExact;
      run.entriesAt = Math.min(fetchedAt(run.usExact, true), run.usFuzzyAt, fetchedAt(run.cnExact, run.cjk));
    }
  }

  private async fetch(
    market: Market,
    wanted: ReadonlySet<string>,
    out: Map<string, KeyEntry>,
    now: number,
    oldest: number,
  ): Promise<void> {
    if (wanted.size === 0) return;
    const filter = await this.sources.keyFilter?.(market);
    const missing: string[] = [];
    const cache = this.cache[market];
    // Most keys are absent, and the filter says so without a read: they share one entry and stay out of the cache.
    const absent: KeyEntry = { marks: NO_MARKS, at: now };
    for (const key of wanted) {
      if (filter && !filter.mightContain(key)) {
        out.set(key, absent);
        continue;
      }
      const cached = cache.get(key);
      if (cached !== undefined && cached.at > oldest) out.set(key, cached);
      else missing.push(key);
    }
    if (missing.length === 0) return;
    this.lookups++;
    const fetched = await this.sources.marks.lookup(market, missing);
    for (const key of missing) {
      // A key read again as it was keeps the marks array the runs were verified from: none is verified again.
      const marks = notDead(fetched.get(key));
      const previous = cache.peek(key)?.marks;
      out.set(key, this.remember(cache, key, previous && sameMarks(previous, marks) ? previous : marks, now));
    }
  }

  private remember(
    cache: LRUCache<string, KeyEntry>,
    key: string,
    marks: readonly MarkSummary[],
    at: number,
  ): KeyEntry {
    const entry: KeyEntry = { marks, at };
    cache.set(key, entry);
    return entry;
  }
}

/**
 * A key's marks without its dead records: they raise no risk and count in no owner's registrations (run-matches.ts
 * leaves them out of verification), and in a register of real size they are nearly half of every key, so they are
 * not kept in the cache nor walked for each run.
 */
function notDead(marks: readonly MarkSummary[] | undefined): readonly MarkSummary[] {
  if (marks === undefined) return NO_MARKS;
  let dead = 0;
  for (const mark of marks) if (mark.statusCategory === 'dead') dead++;
  if (dead === 0) return marks;
  return dead === marks.length ? NO_MARKS : marks.filter((mark) => mark.statusCategory !== 'dead');
}

function sameMarks(a: readonly MarkSummary[], b: readonly MarkSummary[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (
      x.serial !== y.serial ||
      x.markText !== y.markText ||
      x.statusCategory !== y.statusCategory ||
      x.isLive !== y.isLive ||
      x.drawingKind !== y.drawingKind ||
      x.owner !== y.owner ||
      x.niceClasses.length !== y.niceClasses.length
    )
      return false;
    for (let c = 0; c < x.niceClasses.length; c++) if (x.niceClasses[c] !== y.niceClasses[c]) return false;
  }
  return true;
}

const NO_ENTRIES: readonly KeyEntry[] = Object.freeze([]);

const fresh = (entry: KeyEntry | undefined, oldest: number) => entry !== undefined && entry.at > oldest;

/** When an entry a run needs was fetched (-Infinity: not yet); an entry it does not need sets no limit. */
const fetchedAt = (entry: KeyEntry | undefined, needed: boolean) =>
  needed ? (entry?.at ?? Number.NEGATIVE_INFINITY) : Number.POSITIVE_INFINITY;
