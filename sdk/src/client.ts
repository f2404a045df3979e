import { type ApiError, errorFor, NetworkError, TimeoutError } from './errors';
import { OPERATIONS, type OperationId } from './operations';
import type {
  AckAlertsResponse,
  AccountResponse,
  Alert,
  AlertsQuery,
  AlertsResponse,
  AllowlistResponse,
  BatchScreenRequest,
  BatchScreenResponse,
  DeadLettersQuery,
  DeadLettersResponse,
  DeleteWatchResponse,
  DeleteWebhookResponse,
  FeedbackRequest,
  FeedbackResponse,
  GetWatchResponse,
  ImageSearchRequest,
  ImageSearchResponse,
  OpenApiDocument,
  PutWatchResponse,
  PutWebhookResponse,
  RequeueDeadLettersResponse,
  StatusResponse,
  TestWebhookResponse,
  UsageQuery,
  UsageRecord,
  UsageResponse,
  WatchItem,
  WatchQuery,
  WatchRequest,
  Webhook,
  WebhookDeadLetter,
  WebhookRequest,
} from './types';

export interface ClientOptions {
  /** The API's address, with or without the trailing /v1, e.g. https://api.example.com or http://127.0.0.1:3000/v1. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; status, openapi and docs need none. */
  apiKey?: string;
  /** A fetch of your own (tests, proxies); the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Milliseconds a call may take, retries and their waits included; none by default. */
  timeoutMs?: number;
  /** Tries per call on 429, 5xx and network failures, the first included (default 3). */
  maxAttempts?: number;
  /** First backoff step when no Retry-After is given, doubled per try, jittered (default 500 ms). */
  retryBaseDelayMs?: number;
  /** The longest wait between tries, Retry-After included (default 30 s). */
  maxRetryDelayMs?: number;
  /** Extra headers sent on every call. */
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A key of your own for a metered call or PUT; one is generated per call otherwise. */
  idempotencyKey?: string;
}

/** A successful answer with what its headers say. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  requestId: string | undefined;
  headers: Headers;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;

/** Retry-After as milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

function newIdempotencyKey(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  let out = '';
  for (let i = 0; i < 32; i += 1) out += Math.floor(Math.random() * 16).toString(16);
  return out;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The operation's path with each `{name}` segment filled in, percent-encoded (an id may hold `/`, `?` or `#`). */
function pathOf(template: string, parameters: Record<string, string> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = parameters?.[name];
    if (value === undefined || value === '') throw new TypeError(`the path parameter ${name} is required`);
    return encodeURIComponent(value);
  });
}

const TIMED_OUT = Symbol('timed out');

export class TrademarkRiskClient {
  readonly baseUrl: string;
  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  /** POST /v1/batch-screen: up to 1,000 titles, each with a risk and its top conflict. Metered. */
  async batchScreen(body: BatchScreenRequest, options?: CallOptions): Promise<BatchScreenResponse> {
    return (await this.request<BatchScreenResponse>('batchScreen', { body, ...options })).data;
  }

  /** POST /v1/image-search: marks whose logos look like the image (base64 or a URL). Metered. */
  async imageSearch(body: ImageSearchRequest, options?: CallOptions): Promise<ImageSearchResponse> {
    return (await this.request<ImageSearchResponse>('imageSearch', { body, ...options })).data;
  }

  /** GET /v1/account: tier, balance in points, rate limit, this key, the operations and their prices. */
  async account(options?: CallOptions): Promise<AccountResponse> {
    return (await this.request<AccountResponse>('account', options)).data;
  }

  /** GET /v1/usage: one page of usage records, newest first, with totals; see usagePages and usageRecords. */
  async usage(query?: UsageQuery, options?: CallOptions): Promise<UsageResponse> {
    return (await this.request<UsageResponse>('usage', { query, ...options })).data;
  }

  /** Every page of GET /v1/usage from the query's cursor (or the first) to the last. */
  async *usagePages(query: UsageQuery = {}, options?: CallOptions): AsyncGenerator<UsageResponse> {
    let cursor = query.cursor;
    do {
      const page = await this.usage({ ...query, cursor }, options);
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** Every usage record in range, page after page. */
  async *usageRecords(query: UsageQuery = {}, options?: CallOptions): AsyncGenerator<UsageRecord> {
    for await (const page of this.usagePages(query, options)) yield* page.records;
  }

  /** GET /v1/allowlist: the brands this account may sell. */
  async getAllowlist(options?: CallOptions): Promise<AllowlistResponse> {
    return (await this.request<AllowlistResponse>('getAllowlist', options)).data;
  }

  /** PUT /v1/allowlist: replaces the list whole. */
  async putAllowlist(brands: string[], options?: CallOptions): Promise<AllowlistResponse> {
    return (await this.request<AllowlistResponse>('putAllowlist', { body: { brands }, ...options })).data;
  }

  /** POST /v1/feedback: a report on one screening result (false alarm, missed brand, wrong mark). */
  async feedback(body: FeedbackRequest, options?: CallOptions): Promise<FeedbackResponse> {
    return (await this.request<FeedbackResponse>('feedback', { body, ...options })).data;
  }

  /** PUT /v1/watch: adds or replaces watched titles and logos, screening each. */
  async putWatch(body: WatchRequest, options?: CallOptions): Promise<PutWatchResponse> {
    return (await this.request<PutWatchResponse>('putWatch', { body, ...options })).data;
  }

  /** GET /v1/watch: one page of watched items. */
  async getWatch(query?: WatchQuery, options?: CallOptions): Promise<GetWatchResponse> {
    return (await this.request<GetWatchResponse>('getWatch', { query, ...options })).data;
  }

  /** Every watched item, page after page. */
  async *watchItems(query: WatchQuery = {}, options?: CallOptions): AsyncGenerator<WatchItem> {
    let cursor = query.cursor;
    do {
      const page = await this.getWatch({ ...query, cursor }, options);
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** DELETE /v1/watch/{id}: stops watching one item (its alerts stay); `deleted: false` when it was not watched. */
  async deleteWatch(id: string, options?: CallOptions): Promise<DeleteWatchResponse> {
    return (await this.request<DeleteWatchResponse>('deleteWatch', { path: { id }, ...options })).data;
  }

  /** GET /v1/alerts: one page of alerts on watched titles whose result changed with new data. */
  async getAlerts(query?: AlertsQuery, options?: CallOptions): Promise<AlertsResponse> {
    return (await this.request<AlertsResponse>('getAlerts', { query, ...options })).data;
  }

  /** Every alert matching the query, page after page. */
  async *alerts(query: AlertsQuery = {}, options?: CallOptions): AsyncGenerator<Alert> {
    let cursor = query.cursor;
    do {
      const page = await this.getAlerts({ ...query, cursor }, options);
      yield* page.alerts;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** POST /v1/alerts/ack: marks alerts acknowledged by id. */
  async ackAlerts(ids: string[], options?: CallOptions): Promise<AckAlertsResponse> {
    return (await this.request<AckAlertsResponse>('ackAlerts', { body: { ids }, ...options })).data;
  }

  /** GET /v1/openapi.json: the OpenAPI 3.1 document. */
  /** PUT /v1/webhook: sets the account's webhook; `secret` is in the answer only when this call issued it. */
  async putWebhook(body: WebhookRequest, options?: CallOptions): Promise<PutWebhookResponse> {
    return (await this.request<PutWebhookResponse>('putWebhook', { body, ...options })).data;
  }

  /** GET /v1/webhook: the account's webhook, without its secret (a NotFoundError when none is set). */
  async getWebhook(options?: CallOptions): Promise<Webhook> {
    return (await this.request<Webhook>('getWebhook', options)).data;
  }

  /** DELETE /v1/webhook: removes the webhook; `deleted: false` when none was set. */
  async deleteWebhook(options?: CallOptions): Promise<DeleteWebhookResponse> {
    return (await this.request<DeleteWebhookResponse>('deleteWebhook', options)).data;
  }

  /** POST /v1/webhook/test: one signed test delivery now; answers whether the receiver took it. */
  async testWebhook(options?: CallOptions): Promise<TestWebhookResponse> {
    return (await this.request<TestWebhookResponse>('testWebhook', { body: {}, ...options })).data;
  }

  /** POST /v1/webhook/redeliver: sends one dead letter again now (one try); delivered, it is removed. */
  async redeliverWebhook(id: string, options?: CallOptions): Promise<TestWebhookResponse> {
    return (await this.request<TestWebhookResponse>('redeliverWebhook', { body: { id }, ...options })).data;
  }

  /**
   * POST /v1/webhook/redeliver with `all: true`: hands up to 25 dead letters (newest first, after `cursor`) back to
   * the deliverer, with its usual tries, and removes them from the dead letters. Pass `next_cursor` back as `cursor`.
   */
  async requeueDeadLetters(
    query: { cursor?: string } = {},
    options?: CallOptions,
  ): Promise<RequeueDeadLettersResponse> {
    const body = { all: true, ...(query.cursor ? { cursor: query.cursor } : {}) };
    return (await this.request<RequeueDeadLettersResponse>('redeliverWebhook', { body, ...options })).data;
  }

  /** Every dead letter re-queued, call after call: the event ids, newest first. */
  async requeueAllDeadLetters(options?: CallOptions): Promise<string[]> {
    const requeued: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.requeueDeadLetters({ cursor }, options);
      requeued.push(...page.requeued);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return requeued;
  }

  /** GET /v1/webhook/dead-letters: one page of deliveries that failed every try, newest first. */
  async webhookDeadLetters(query?: DeadLettersQuery, options?: CallOptions): Promise<DeadLettersResponse> {
    return (await this.request<DeadLettersResponse>('webhookDeadLetters', { query, ...options })).data;
  }

  /** Every dead letter, page after page. */
  async *deadLetters(query: DeadLettersQuery = {}, options?: CallOptions): AsyncGenerator<WebhookDeadLetter> {
    let cursor = query.cursor;
    do {
      const page = await this.webhookDeadLetters({ ...query, cursor }, options);
      yield* page.dead_letters;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  async openapi(options?: CallOptions): Promise<OpenApiDocument> {
    return (await this.request<OpenApiDocument>('openapi', options)).data;
  }

  /** GET /v1/status: how fresh the data is per market and source. No key needed. */
  async status(options?: CallOptions): Promise<StatusResponse> {
    return (await this.request<StatusResponse>('status', options)).data;
  }

  /** The address of the human-readable reference (GET /docs, an HTML page). */
  docsUrl(): string {
    return `${this.baseUrl}${OPERATIONS.docs.path}`;
  }

  /** One operation with retries: 429, 5xx and network failures, up to maxAttempts tries, one Idempotency-Key. */
  async request<T>(
    operationId: OperationId,
    call: CallOptions & { body?: unknown; query?: object; path?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const operation = OPERATIONS[operationId];
    const fetchImpl = this.options.fetch ?? globalThis.fetch.bind(globalThis);
    const maxAttempts = Math.max(1, this.options.maxAttempts ?? 3);
    const baseDelay = this.options.retryBaseDelayMs ?? 500;
    const maxDelay = this.options.maxRetryDelayMs ?? 30_000;
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    if (this.options.apiKey) headers.Authorization = `Bearer ${this.options.apiKey}`;
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (operation.idempotent) headers['Idempotency-Key'] = call.idempotencyKey ?? newIdempotencyKey();
    const url = `${this.baseUrl}${pathOf(operation.path, call.path)}${queryString(call.query)}`;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);

    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(call.signal?.reason);
    if (call.signal?.aborted) throw call.signal.reason;
    call.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const signal = controller.signal;
    try {
      for (let attempt = 1; ; attempt += 1) {
        let response: Response;
        try {
          response = await fetchImpl(url, { method: operation.method, headers, body, signal });
        } catch (error) {
          if (signal.aborted) throw this.abortError(signal, timeoutMs);
          if (attempt >= maxAttempts) {
            throw new NetworkError({ status: 0, code: 'network_error', message: String(error), cause: error });
          }
          await this.wait(this.backoff(attempt, baseDelay, maxDelay), signal, timeoutMs);
          continue;
        }
        if (response.ok) {
          const data = (await response.json()) as T;
          return {
            data,
            status: response.status,
            requestId: response.headers.get('x-request-id') ?? undefined,
            headers: response.headers,
          };
        }
        const error = await this.toError(response);
        if (!RETRYABLE(response.status) || attempt >= maxAttempts) throw error;
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        const delay =
          retryAfter === undefined ? this.backoff(attempt, baseDelay, maxDelay) : Math.min(retryAfter, maxDelay);
        await this.wait(delay, signal, timeoutMs);
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      call.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  private backoff(attempt: number, base: number, max: number): number {
    const ceiling = Math.min(max, base * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private async wait(ms: number, signal: AbortSignal, timeoutMs: number | undefined): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch {
      throw this.abortError(signal, timeoutMs);
    }
  }

  private abortError(signal: AbortSignal, timeoutMs: number | undefined): unknown {
    if (signal.reason === TIMED_OUT) {
      return new TimeoutError({ status: 0, code: 'timeout', message: `no answer within ${timeoutMs} ms` });
    }
    return signal.reason;
  }

  private async toError(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    let envelope: { error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown } } = {};
    try {
      envelope = JSON.parse(text);
    } catch {
      // Not the envelope (a proxy's page, say): the status speaks for it.
    }
    const e = envelope.error ?? {};
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    return errorFor({
      status: response.status,
      code: typeof e.code === 'string' ? e.code : `http_${response.status}`,
      message: typeof e.message === 'string' ? e.message : text.slice(0, 200) || response.statusText,
      requestId: typeof e.request_id === 'string' ? e.request_id : (response.headers.get('x-request-id') ?? undefined),
      details: e.details,
      retryAfterSeconds: retryAfter === undefined ? undefined : retryAfter / 1000,
    });
  }
}

/** A client for the API at baseUrl. */
export function createClient(options: ClientOptions): TrademarkRiskClient {
  return new TrademarkRiskClient(options);
}
