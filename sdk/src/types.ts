/** Request and response shapes of the trademark-risk API, as the OpenAPI document describes them. */

export type Risk = string;
export type Nice = number | string;
export type Tier = 'free' | 'basic' | 'professional' | 'enterprise' | (string & {});

export interface ScreenItem {
  title: string;
  nice?: Nice;
}

export interface BatchScreenRequest {
  items: ScreenItem[];
  detail?: boolean;
}

export interface Conflict {
  mark?: string;
  serial?: string;
  nice?: string;
  is_live?: 0 | 1;
  match?: 'exact' | 'phonetic' | 'fuzzy' | 'transliteration';
  words?: string[];
  tro?: boolean;
  score?: number;
  reason?: string;
  allowlisted?: boolean;
}

export interface ScreenResult {
  name: string;
  risk: Risk;
  tro_hit: boolean;
  top_conflict: string;
  brand_words?: string[];
  conflicts?: Conflict[];
}

export interface BatchScreenResponse {
  results: ScreenResult[];
  count: number;
  data_as_of: string;
}

export interface ImageSearchRequest {
  image_b64?: string;
  url?: string;
  country?: 'US' | 'CN';
  nice?: Nice;
  limit?: number;
  detail?: boolean;
}

export interface ImageMatch {
  serial?: string;
  mark?: string;
  score?: number;
  /** Absent on an uncalibrated search path (the CLIP option): `score` is then a raw similarity. */
  match?: 'likely' | 'possible' | 'none';
  nice?: string;
  is_live?: 0 | 1;
  jurisdiction?: string;
  /** With `detail: true`: where the mark is, in the pixels of the picture as sent (EXIF orientation applied). */
  region?: { x: number; y: number; width: number; height: number };
}

export interface ImageSearchResponse {
  results: ImageMatch[];
  count: number;
  data_as_of: string;
  degraded: boolean;
  country?: string;
  source?: string;
  partial?: boolean;
  coverage_note?: string;
}

export interface AccountOperation {
  operation: string;
  method: string;
  path: string;
  points: number;
  per: string;
  min_tier: string;
  allowed: boolean;
}

export interface AccountResponse {
  account_id: string;
  name: string;
  tier: Tier;
  balance: number;
  rate_limit: { requests: number; window_seconds: number; remaining: number };
  key: { id: string; prefix: string };
  created_at: string;
  operations: AccountOperation[];
}

export interface UsageQuery {
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
  scope?: 'account' | 'key';
}

export interface UsageRecord {
  id: string;
  at: string;
  kind: 'charge' | 'credit' | 'adjustment' | 'event';
  operation?: string;
  status: 'charged' | 'refunded' | 'credited' | 'adjusted' | 'recorded';
  points: number;
  units?: number;
  request_id?: string;
  key_id?: string;
  note?: string;
  refunded_at?: string;
}

export interface UsageTotals {
  requests: number;
  points: number;
  units: number;
  refunded_requests: number;
  complete: boolean;
  by_operation: Record<string, unknown>;
  by_day: { date: string; operation: string; requests: number; points: number; units: number }[];
}

export interface UsageResponse {
  from: string;
  to: string;
  scope: 'account' | 'key';
  records: UsageRecord[];
  count: number;
  next_cursor: string | null;
  totals?: UsageTotals;
}

export interface AllowlistRequest {
  brands: string[];
}

export interface AllowlistResponse {
  brands: string[];
  count: number;
  max_brands: number;
  updated_at: string | null;
}

export type FeedbackKind = 'false_alarm' | 'missed_brand' | 'wrong_mark';

export interface FeedbackRequest {
  kind: FeedbackKind;
  title: string;
  request_id?: string;
  item_index?: number;
  watch_item_id?: string;
  brand?: string;
  mark?: string;
  top_conflict?: string;
  note?: string;
}

export interface FeedbackResponse {
  id: string;
  created_at: string;
}

export interface WatchRequest {
  items?: { id: string; title: string; nice?: Nice }[];
  logos?: { id: string; image_url: string }[];
}

export interface WatchResult {
  id: string;
  risk: Risk;
  tro_hit: boolean;
  top_conflict: string;
}

export interface PutWatchResponse {
  results: WatchResult[];
  titles: number;
  logos: number;
  data_as_of: string;
}

export interface WatchQuery {
  limit?: number;
  cursor?: string;
}

export interface WatchItem {
  id: string;
  kind: string;
  title?: string;
  nice?: string;
  image_url?: string;
  risk?: Risk;
  tro_hit?: boolean;
  top_conflict?: string;
  data_as_of?: string;
  added_at: string;
  screened_at?: string;
}

export interface GetWatchResponse {
  items: WatchItem[];
  count: number;
  next_cursor: string | null;
}

export interface DeleteWatchResponse {
  id: string;
  /** False when the id was not watched (nothing changed). */
  deleted: boolean;
}

export interface StatusSource {
  source: 'marks' | 'tro' | 'logos';
  data_as_of: string | null;
  batch: string | null;
  records?: number | null;
  brands?: number;
  cases?: number;
  jobs: Record<string, unknown>[];
}

export interface StatusResponse {
  as_of: string;
  markets: { market: 'US' | 'CN'; sources: StatusSource[] }[];
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The error envelope every refusal is sent in. */
export interface ErrorEnvelope {
  error: { code: string; message: string; request_id: string; details?: unknown };
}

export interface AlertsQuery {
  limit?: number;
  cursor?: string;
  /** Only alerts raised by data of this date (YYYY-MM-DD) or later. */
  since?: string;
  acknowledged?: boolean;
}

export interface Alert {
  id: string;
  item_id: string;
  title: string;
  old_risk: Risk;
  new_risk: Risk;
  old_top_conflict: string;
  top_conflict: string;
  tro_hit: boolean;
  tro_case?: string;
  market: string;
  data_as_of: string;
  created_at: string;
  acknowledged: boolean;
}

export interface AlertsResponse {
  alerts: Alert[];
  count: number;
  next_cursor: string | null;
}

export interface AckAlertsResponse {
  acknowledged: string[];
  not_found: string[];
}

export interface WebhookRequest {
  /** https on port 443, resolving only to public addresses. */
  url: string;
  /** true: issue a new signing secret (in this answer only); the old one stops signing at once. */
  rotate_secret?: boolean;
}

export interface Webhook {
  url: string;
  created_at: string;
  updated_at: string;
  secret_issued_at: string;
}

export interface PutWebhookResponse extends Webhook {
  /** The signing secret, only when this call issued it (the first call, or rotate_secret: true). */
  secret?: string;
}

export interface DeleteWebhookResponse {
  /** False when no webhook was set (nothing changed). */
  deleted: boolean;
}

export interface TestWebhookResponse {
  /** The Webhook-Id the receiver was sent. */
  event_id: string;
  url: string;
  /** True when the receiver answered 2xx. */
  delivered: boolean;
  status?: number;
  error?: string;
  duration_ms: number;
}

export interface WebhookDeadLetter {
  /** The event id (Webhook-Id). */
  id: string;
  url: string;
  attempts: number;
  last_error: string;
  last_status?: number;
  failed_at: string;
  /** The event as it was sent: id, type (alerts.created), created_at, data. */
  payload: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

export interface DeadLettersQuery {
  /** 1 to 100, default 20. */
  limit?: number;
  cursor?: string;
}

export interface DeadLettersResponse {
  dead_letters: WebhookDeadLetter[];
  count: number;
  next_cursor: string | null;
}

/** POST /v1/webhook/redeliver with `all: true`: the dead letters one call handed back to the deliverer. */
export interface RequeueDeadLettersResponse {
  /** The event ids re-queued, newest dead letter first (each removed from the dead letters). */
  requeued: string[];
  count: number;
  /** Pass back as `cursor` for the dead letters after these; null when none is left. */
  next_cursor: string | null;
}
