/**
 * The ports the domain and the HTTP chain depend on. Adapters live in shared/adapters/aws (DynamoDB, ...) and
 * shared/adapters/local; the composition root (shared/composition/) picks them from config.
 *
 * Over 400 lines on purpose: this file is the whole boundary between the domain and the outside, read as one page
 * (every interface an adapter must honour, with the contract in its comments); split by port it would hide that.
 */
import type { Tier } from './metering/tiers';
import type { DrawingKind, Market, MarkRecord, StatusCategory } from './marks/mark-record';
import type { TroEntry } from './marks/tro-csv';
import type { KeyFilter } from './marks/key-filter';
import type { DataJobName, DataJobRun, DataJobState } from './data-jobs/jobs';
import type { FeedbackRecord } from './feedback/feedback';
import type { WatchAlert } from './watch/alerts';
import type { WatchItem, WatchResult } from './watch/watch';
import type { StoredDeadLetter, Webhook, WebhookJob } from './webhooks/webhook';

export interface Account {
  accountId: string;
  name: string;
  tier: Tier;
  points: number;
  /** Requests allowed per rate-limit window; absent means the service default. */
  rateLimit?: number;
  createdAt: string;
  /** Set while an operator has the account suspended (copied onto its keys). */
  suspendedAt?: string;
}

/**
 * A key carries a copy of its account's tier and rate limit, so that authenticating a request is one read.
 * Changing an account's tier or limit rewrites its keys in the same transaction.
 */
export interface ApiKeyRecord {
  keyHash: string;
  keyId: string;
  accountId: string;
  tier: Tier;
  rateLimit?: number;
  prefix: string;
  createdAt: string;
  revokedAt?: string;
  label?: string;
  /** A rotated key: accepted until this instant, refused after. */
  expiresAt?: string;
  /** A copy of the account's suspension. */
  suspendedAt?: string;
}

export interface AccountStore {
  getAccount(accountId: string, options?: { consistent?: boolean }): Promise<Account | undefined>;
  findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined>;
  createAccount(input: { name: string; tier: Tier; rateLimit?: number; now: Date }): Promise<Account>;
  saveApiKey(record: ApiKeyRecord): Promise<void>;
  listApiKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Returns false when the key does not exist or was already revoked. */
  revokeApiKey(accountId: string, keyId: string, now: Date): Promise<boolean>;
  /** Changes the account and every one of its keys together. */
  setTier(accountId: string, tier: Tier): Promise<void>;
  setRateLimit(accountId: string, requestsPerWindow: number | undefined): Promise<void>;
  /** Suspends (an instant) or resumes (undefined) the account and every one of its keys together. */
  setSuspended(accountId: string, suspendedAt: string | undefined): Promise<void>;
  /** Sets the instant after which a key is refused (a rotated key's grace period). False when no such live key. */
  expireApiKey(accountId: string, keyId: string, expiresAt: string): Promise<boolean>;
  /** Every account (an operator's listing: a full read of the accounts table). */
  listAccounts(): Promise<Account[]>;
  /** The keys whose display prefix starts with the given text, e.g. `tmk_live_Ab3d`. */
  findApiKeysByPrefix(prefix: string): Promise<ApiKeyRecord[]>;
}

/**
 * charge: a metered call; credit: points added; adjustment: points taken off by an operator, with a reason;
 * event: an operator's action that moves no points (suspend, resume, key rotation), kept with the account's record.
 */
export type LedgerEntryKind = 'charge' | 'credit' | 'adjustment' | 'event';

export interface LedgerEntry {
  accountId: string;
  entryId: string;
  kind: LedgerEntryKind;
  /** charge: charged or refunded; credit: credited; adjustment: adjusted; event: recorded. */
  status: 'charged' | 'refunded' | 'credited' | 'adjusted' | 'recorded';
  operation: string;
  /** Points moved: a charge's cost, a credit's amount. Always positive. */
  points: number;
  units: number;
  requestId: string;
  at: string;
  refundedAt?: string;
  refundReason?: string;
  note?: string;
  /** charge: the API key that made the call. */
  keyId?: string;
  /** charge: the account's balance right after this charge (before any refund of it). */
  balanceAfter?: number;
}

export interface Debit {
  accountId: string;
  entryId: string;
  cost: number;
  /** The balance this debit left; unknown only for a debit that got no answer. */
  balanceAfter?: number;
}

export interface DebitInput {
  accountId: string;
  /** The key that made the call, kept on the usage record (usage per key). */
  keyId?: string;
  cost: number;
  units: number;
  operation: string;
  requestId: string;
  now: Date;
}

export interface UsageLedger {
  /**
   * One atomic transaction: the balance goes down by `cost` only if it stays at or above zero, and the charge
   * record (with the key id and the balance after) is written with it. Throws InsufficientPointsError (with the
   * balance), AccountNotFoundError, or DebitContendedError when other movements of the account kept winning.
   */
  debit(input: DebitInput): Promise<Debit>;
  /** Gives the points of a charge back, at most once. Returns false when it had already been refunded. */
  refund(debit: Debit, reason: string, now: Date): Promise<boolean>;
  /** Adds points (grant, top-up) with a credit record, atomically. Returns the new balance. */
  credit(input: { accountId: string; points: number; note: string; now: Date }): Promise<number>;
  entries(accountId: string, options?: { limit?: number; newestFirst?: boolean }): Promise<LedgerEntry[]>;
  /**
   * Takes points off (a negative adjustment) with an `adjustment` record giving the reason, atomically. Never below
   * zero: throws InsufficientPointsError (with the balance). Returns the new balance.
   */
  adjust(input: { accountId: string; points: number; reason: string; now: Date }): Promise<number>;
  /** Records an operator's action that moves no points (an `event` entry). */
  recordEvent(input: {
    accountId: string;
    operation: string;
    note: string;
    keyId?: string;
    now: Date;
  }): Promise<LedgerEntry>;
  /**
   * The records at or after `from` and before `to`, newest first, `limit` at most, continuing below `before` (an
   * entry id the previous page ended on). `more` says whether older records in the range remain.
   */
  page(
    accountId: string,
    query: LedgerRange & { limit: number; before?: string },
  ): Promise<{ entries: LedgerEntry[]; more: boolean }>;
  /** Every record of the range, newest first (for totals and reports). */
  between(accountId: string, query: LedgerRange): AsyncIterable<LedgerEntry>;
}

export interface LedgerRange {
  from: Date;
  to: Date;
  /** Only the records of this API key. */
  keyId?: string;
}

/** An account's own brands: screening does not raise these marks on its calls. */
export interface Allowlist {
  accountId: string;
  brands: string[];
  updatedAt: string;
}

export interface AllowlistStore {
  get(accountId: string): Promise<Allowlist | undefined>;
  /** Replaces the account's whole list. */
  put(accountId: string, brands: readonly string[], now: Date): Promise<Allowlist>;
}

/** Sellers' reports on screening results (shared/feedback/feedback.ts), kept per account. */
export interface FeedbackStore {
  /** Stores a new report; never replaces one (ids are unique). */
  add(record: FeedbackRecord): Promise<void>;
  /** Every account's reports made at or after `since` (an operator's export: a full read of the table). */
  all(options?: { since?: Date }): AsyncIterable<FeedbackRecord>;
}

/** Watched catalogues and their alerts (shared/watch), kept per account. */
export interface WatchStore {
  /** Adds or replaces items by (account, item id). */
  putItems(items: readonly WatchItem[]): Promise<void>;
  /** One account's items in item-id order, after `after`; `last` is set when more may follow. */
  listItems(
    accountId: string,
    options: { limit: number; after?: string },
  ): Promise<{ items: WatchItem[]; last?: string }>;
  /** False when there was no such item. */
  deleteItem(accountId: string, itemId: string): Promise<boolean>;
  /** Keeps a new result on an item that still exists (a deleted item is not brought back). */
  updateResult(accountId: string, itemId: string, result: WatchResult, screenedAt: string): Promise<void>;
  /** Every account with at least one watched item. */
  accountsWatching(): AsyncIterable<string>;
  /** Records an alert unless one with its id exists: true when this call recorded it. */
  addAlert(alert: WatchAlert): Promise<boolean>;
  /** One account's alerts of a batch that still carry the hand-over mark (`pendingHandOver`), in id order. */
  pendingAlerts(accountId: string, batch: Pick<BatchCompleted, 'batchId' | 'dataAsOf'>): Promise<WatchAlert[]>;
  /** Clears the hand-over mark of these alerts, all at once for up to 100 (one transaction), and notes when. */
  markHandedOver(accountId: string, alertIds: readonly string[], at: string): Promise<void>;
  listAlerts(accountId: string): Promise<WatchAlert[]>;
  /** One account's alerts in id order (data date first), after `after`, from the data date `since`. */
  pageAlerts(
    accountId: string,
    options: { limit: number; after?: string; since?: string; acknowledged?: boolean },
  ): Promise<{ alerts: WatchAlert[]; last?: string }>;
  /** Marks alerts acknowledged; answers the ids that exist (an unknown id is left out). */
  acknowledgeAlerts(accountId: string, alertIds: readonly string[], at: string): Promise<string[]>;
}

/** The state of one event's delivery: taken by one deliverer at a time, finished once. */
export type DeliveryClaim = 'claimed' | 'in_progress' | 'finished';

/** Each account's webhook, its events' delivery claims and its dead letters (shared/webhooks). */
export interface WebhookStore {
  get(accountId: string): Promise<Webhook | undefined>;
  /** Stores a new webhook unless the account has one: false when it had (nothing changed). */
  create(webhook: Webhook): Promise<boolean>;
  /** Points the account's webhook at a new URL, keeping its secret: undefined when it has none. */
  changeUrl(accountId: string, url: string, at: string): Promise<Webhook | undefined>;
  /** Sets URL and a new secret at once, creating the webhook when there is none (its createdAt kept otherwise). */
  replace(webhook: Webhook): Promise<Webhook>;
  /** False when there was none. Its dead letters stay until they expire. */
  remove(accountId: string): Promise<boolean>;
  /**
   * Takes an event's delivery: `claimed` for the first deliverer (or one taking over a claim older than
   * `staleAfterSeconds`, whose holder died), `in_progress` while another holds it, `finished` once it was delivered
   * or dead-lettered (a repeated event is dropped).
   */
  claimDelivery(accountId: string, eventId: string, now: Date, staleAfterSeconds: number): Promise<DeliveryClaim>;
  finishDelivery(accountId: string, eventId: string, outcome: 'delivered' | 'dead_letter', now: Date): Promise<void>;
  /**
   * Makes a dead-lettered event's delivery claimable again, so that it can be handed to the deliverer anew:
   * `reopened` when its claim was `dead_letter` (or has expired), otherwise the claim's state (`delivered` meanwhile,
   * or `in_progress`: a delivery of it is running), which is left as it is.
   */
  reopenDelivery(accountId: string, eventId: string): Promise<'reopened' | 'delivered' | 'in_progress'>;
  recordDeadLetter(entry: StoredDeadLetter): Promise<void>;
  /** The account's dead letter of an event, if there is one. */
  findDeadLetter(accountId: string, eventId: string): Promise<StoredDeadLetter | undefined>;
  /** Removes a dead letter (its event was delivered after all): false when it was already gone. */
  removeDeadLetter(entry: Pick<StoredDeadLetter, 'accountId' | 'eventId' | 'failedAt'>): Promise<boolean>;
  /** One account's dead letters, newest first, after `after` (the previous page's `last`). */
  pageDeadLetters(
    accountId: string,
    options: { limit: number; after?: string },
  ): Promise<{ deadLetters: StoredDeadLetter[]; last?: string }>;
}

/**
 * Hands a webhook event to its delivery, away from the caller: an EventBridge event to the webhook-deliver function
 * in AWS, a queue in the process locally. Returns once the event is handed over, never after the delivery.
 */
export interface WebhookDispatch {
  dispatch(job: WebhookJob): Promise<void>;
}

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyBegin = { kind: 'started' } | { kind: 'replay'; response: StoredResponse };

export interface IdempotencyStore {
  /**
   * Claims the key for this request, or returns the stored first response. Throws IdempotencyKeyReusedError when
   * the key was used with another request, IdempotencyInProgressError while the first request is still running.
   */
  begin(input: { id: string; fingerprint: string; requestId: string; now: Date }): Promise<IdempotencyBegin>;
  complete(input: { id: string; requestId: string; response: StoredResponse; now: Date }): Promise<void>;
  /** Frees the key after a failed request so that the client can retry with it. */
  release(input: { id: string; requestId: string }): Promise<void>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

export interface RateLimiter {
  hit(accountId: string, limit: number, now: Date): Promise<RateLimitDecision>;
}

// ---- Trademark data -------------------------------------------------------------------------------------------

/** What a lookup key's item says about each mark filed under it: enough to judge a conflict without another read. */
export interface MarkSummary {
  serial: string;
  markText: string;
  niceClasses: string[];
  isLive: boolean;
  statusCategory: StatusCategory;
  drawingKind: DrawingKind;
  /**
   * A short tag of the owner's normalised name (lookup-keys.ts ownerTagOf), when the record names one: marks of one
   * owner share it, so a key's marks tell how many registrations of a text one owner holds (the mark's strength).
   */
  owner?: string;
}

export interface MarkWriteResult {
  /** Records whose content changed (new, or different from what the store had), or that are filed under new keys. */
  written: number;
  /** Records the store already had exactly, under the same keys (a re-run). */
  unchanged: number;
  /** Records older than what the store has for that serial (an old batch run after a newer one). */
  stale: number;
  /** The lookup keys the written records are filed under (for the market's key filter). */
  keys: string[];
  /** The serials of the written records (for the market's serial filter). */
  serials: string[];
}

/**
 * What the writer knows to be absent from the store (the market's sealed filters say "no"): no need to read it
 * before writing it.
 */
export interface KnownAbsent {
  /** `key` as lookupKeysOfMark gives it, without the market. */
  key(market: Market, key: string): boolean;
  serial(market: Market, serial: string): boolean;
}

export interface MarkStore {
  /** Marks filed under each key; keys with no marks are absent from the map. */
  lookup(market: Market, keys: readonly string[]): Promise<Map<string, MarkSummary[]>>;
  getMark(market: Market, serial: string): Promise<(MarkRecord & { lookupKeys: string[] }) | undefined>;
  /**
   * Writes a chunk of records (by serial: the newest batch wins; the same content twice changes nothing) and files
   * them under their keys before it returns. What `absent` vouches for is not read first.
   */
  upsertMarks(records: readonly MarkRecord[], options?: { absent?: KnownAbsent }): Promise<MarkWriteResult>;
  /**
   * A writer for a whole batch, which files its marks under their keys at `finish` (or when it holds too much):
   * a key shared by records of many chunks is then written once, not once per chunk. Until `finish` returns, a
   * mark record may be stored before its keys; `refile` repairs that after an interrupted batch.
   */
  openBatchWriter(options?: { absent?: KnownAbsent }): MarkBatchWriter;
  /** Every lookup key of a market that has marks, for rebuilding its key filter. */
  allKeys(market: Market): AsyncIterable<string>;
  /** Every serial of a market, for rebuilding its serial filter. */
  allSerials(market: Market): AsyncIterable<string>;
  /**
   * Every stored mark of a market with the keys it is filed under now (shared/ingest/refile-keys.ts files again
   * those whose keys are no longer what lookupKeysOfRecord gives).
   */
  storedMarks(market: Market): AsyncIterable<{ record: MarkRecord; lookupKeys: string[] }>;
}

export interface MarkBatchWriter {
  /** Writes a chunk's mark records; a key a stored mark leaves is rewritten at once, joins are held back. */
  write(records: readonly MarkRecord[]): Promise<MarkWriteResult>;
  /**
   * Files again under their keys the stored marks of the given batches (ids as batchIdOf gives them): those that
   * did not complete, whose marks may be stored without their keys. Returns how many marks it found.
   */
  refile(market: Market, batchIds: readonly string[]): Promise<number>;
  /** Writes every key change still held back. Nothing is complete until it has returned. */
  finish(): Promise<void>;
}

/**
 * A market's filters (shared/marks/key-filter.ts), kept beside the data they describe: `keys` (lookup keys, read
 * by screening) and `serials` (read by ingest). A filter is sealed when the ingest that saved it completed and
 * nothing has been written since: only then does its "no" mean the store has no such item.
 */
export type FilterName = 'keys' | 'serials';

export interface KeyFilterStore {
  load(market: Market, name?: FilterName): Promise<KeyFilter | undefined>;
  loadSealed(market: Market, name: FilterName): Promise<{ filter: KeyFilter | undefined; sealed: boolean }>;
  /** Unsealed before a write to the store (the saved filter no longer vouches for it); sealed again after. */
  setSealed(market: Market, name: FilterName, sealed: boolean): Promise<void>;
  save(market: Market, filter: KeyFilter, options?: { name?: FilterName; sealed?: boolean }): Promise<void>;
}

export interface TroBrand extends TroEntry {
  brandKey: string;
  batchDate: string;
}

export interface TroStore {
  upsert(entries: readonly TroEntry[], batchDate: string): Promise<number>;
  all(): Promise<TroBrand[]>;
}

export type DataKind = 'marks' | 'tro' | 'logos';

export interface CoverageRecord {
  country: string;
  source: string;
  partial: boolean;
  coverage_note: string;
}

export interface DataBatch {
  market: Market;
  kind: DataKind;
  /** Identifies the batch: re-running the same batch id resumes or repeats it. */
  batchId: string;
  source: string;
  dataAsOf: string;
  status: 'running' | 'complete';
  startedAt: string;
  completedAt?: string;
  counts?: Record<string, number>;
  coverage?: CoverageRecord;
}

export interface DataBatchStore {
  begin(batch: Omit<DataBatch, 'status' | 'completedAt' | 'counts'>): Promise<void>;
  complete(
    batch: Pick<DataBatch, 'market' | 'kind' | 'batchId'>,
    counts: Record<string, number>,
    now: Date,
  ): Promise<void>;
  get(market: Market, kind: DataKind, batchId: string): Promise<DataBatch | undefined>;
  /** The complete batch with the newest data_as_of. */
  latestComplete(market: Market, kind: DataKind): Promise<DataBatch | undefined>;
  /** Whether any batch of the market and kind was ever begun (complete or not). */
  hasBatches(market: Market, kind: DataKind): Promise<boolean>;
  /** The ids of the batches of the market and kind that were begun and never completed. */
  unfinished(market: Market, kind: DataKind): Promise<string[]>;
  /** One ingest at a time per market and kind; a lock whose holder died expires after `ttlSeconds`. */
  acquireLock(market: Market, kind: DataKind, holder: string, now: Date, ttlSeconds: number): Promise<void>;
  releaseLock(market: Market, kind: DataKind, holder: string): Promise<void>;
}

/** "A data batch completed": what the watched catalogues are re-screened on (shared/watch/rescreen.ts). */
export interface BatchCompleted {
  market: string;
  /** What the batch held: register marks or the TRO list. */
  kind: string;
  /** One id per completed batch; a redelivered event carries the same id, so nothing it raises is recorded twice. */
  batchId: string;
  /** The batch's data date, YYYY-MM-DD. */
  dataAsOf: string;
}

/**
 * Announces completed data batches: EventBridge in AWS, in process (or to the running `npm start`) locally. At least
 * once: a consumer must take the same event twice without harm.
 */
export interface BatchEvents {
  batchCompleted(event: BatchCompleted): Promise<void>;
}

/** Where data batches arrive: S3 in AWS, a folder locally. */
export interface BlobStore {
  open(key: string): Promise<NodeJS.ReadableStream>;
}

/** A blob store the data jobs also write to: a fetched file is kept before it is read (never fetched twice). */
export interface WritableBlobStore extends BlobStore {
  /** The object's size in bytes, or undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
  /** Writes the whole object, streamed; a reader never sees it half written. */
  put(key: string, body: Uint8Array | NodeJS.ReadableStream): Promise<void>;
}

/**
 * Where the data jobs' credentials come from: Secrets Manager in AWS, the environment on an operator's laptop.
 * A secret's value never reaches a log, an error message or a stored record.
 */
export interface SecretSource {
  /** The secret's value; throws when it is missing or empty (the message names the secret, never its value). */
  read(name: string): Promise<string>;
}

/** What the scheduled data jobs remember between runs (shared/data-jobs/jobs.ts). */
export interface DataJobStore {
  get(job: DataJobName): Promise<DataJobState | undefined>;
  /** Every job that has run at least once. */
  all(): Promise<DataJobState[]>;
  /**
   * Records the run's end: the attempt, its detail and the data date always (a failed run may have applied some
   * days); the success instant only when it succeeded. The job passes
   * the data date it holds after the run (never older than the one it read at its start).
   */
  recordRun(run: DataJobRun): Promise<void>;
  /** Sets the job's data date to `day` unless it already holds that day or a later one (a hand-over). */
  startFrom(job: DataJobName, day: string): Promise<void>;
}

// ---- Logo search -------------------------------------------------------------------------------------------------

/** A logo ready for an embedder: flattened on white, trimmed, padded square, resized; 8-bit RGB, row-major. */
export interface NormalizedImage {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** Where the content (what the trim kept) lies in the picture as decoded, in its pixels; absent for a made-up image. */
  content?: { left: number; top: number; width: number; height: number };
  /**
   * For a picture on a plain ground that is not white (a light logo on a dark or coloured ground): the same square,
   * same geometry, with the ground made white and each channel turned over by its distance from the ground's
   * (normalize-image.ts, `groundToWhite`). The search looks at both; ingest embeds the picture as it is.
   */
  reversed?: NormalizedImage;
}

/** A window of a normalised image, in fractions of its side (see shared/imaging/regions.ts). */
export interface ImageWindow {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Turns a normalized image into a vector (L2-normalised, so cosine similarity is a dot product). */
export interface Embedder {
  /** e.g. `descriptor`, `clip-sagemaker`, `onnx`: stored with the vectors so that only like is compared to like. */
  readonly name: string;
  readonly dimensions: number;
  embed(image: NormalizedImage, options?: { signal?: AbortSignal }): Promise<Float32Array>;
  /** Embeds windows of the image in one go (the whole image is the window {0, 0, 1, 1}); region search uses it. */
  embedWindows?(
    image: NormalizedImage,
    windows: readonly ImageWindow[],
    options?: { signal?: AbortSignal },
  ): Promise<Float32Array[]>;
}

export interface LogoMetadata {
  serial: string;
  /**
   * Which of the mark's designs this vector shows (the image's file in its logo batch): a mark keeps one vector per
   * design, and a design filed again replaces its own vector only.
   */
  design: string;
  mark: string;
  /** Two-digit Nice classes. */
  nice: string[];
  isLive: boolean;
}

/** One mark found by a query: the best-scoring of its designs (indexes return one match per mark). */
export interface VectorMatch extends LogoMetadata {
  /** Similarity in [0, 1], 1 the same image (see the score mapping of each index). */
  score: number;
}

export interface VectorQuery {
  /** How many marks (not vectors: a mark's designs count once, by the best of them). */
  topK: number;
  /** Only marks with this Nice class. */
  nice?: string;
  /** Only marks in force. */
  liveOnly?: boolean;
  signal?: AbortSignal;
}

/** The logo vectors of one market for one embedder. */
export interface VectorIndex {
  query(vector: Float32Array, query: VectorQuery): Promise<VectorMatch[]>;
  put(items: readonly { vector: Float32Array; metadata: LogoMetadata }[]): Promise<void>;
}

/** Where the in-process logo indexes (one per market and embedder) are kept between runs: a folder, or S3. */
export interface LogoIndexStore {
  /**
   * The index as last saved, or a new empty one. `readOnly`: the caller only searches it, so the store may map its
   * file into memory rather than read it (only the pages searches touch are resident; `put` then throws).
   */
  load(
    market: Market,
    embedder: Pick<Embedder, 'name' | 'dimensions'>,
    options?: { readOnly?: boolean },
  ): Promise<VectorIndex>;
  save(market: Market, embedder: Pick<Embedder, 'name' | 'dimensions'>, index: VectorIndex): Promise<void>;
}
