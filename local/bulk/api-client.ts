/**
 * The bulk tools' HTTP client: one JSON POST to the API with the key, retried on 429, 5xx and lost connections
 * with exponential backoff (full jitter) that honours Retry-After. Any other refusal is returned as it came, for
 * the caller to act on (a 400 names the rows to set aside; a 402 stops the run, resumable after a top-up).
 */
import { backoffDelay, sleep as pause } from '../../shared/async/retry';

/** An answer's JSON body (an empty object when it was not JSON): the fields the tools read, and whatever else came. */
export interface ApiBody {
  [field: string]: unknown;
  results?: unknown[];
  data_as_of?: string;
  degraded?: boolean;
  error?: { code?: string; message?: string; details?: { issues?: { field: string; message: string }[] } };
}

export interface ApiAnswer {
  status: number;
  body: ApiBody;
  /** The body as it came, for a message when it was not JSON. */
  text?: string;
  headers: Headers;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Attempts per call before giving up (the run stops, and can be resumed). */
  maxAttempts?: number;
  /** Upper bound of one wait, in ms. */
  maxDelayMs?: number;
  /** Told about each retry: what failed and how long until the next attempt. */
  onRetry?: (reason: string, delayMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

export class ApiCallFailedError extends Error {}

/** A JSON object is the body as it came; anything else (text, a bare value) reads as an empty body. */
function asBody(parsed: unknown): ApiBody {
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as ApiBody) : {};
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;

/** Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function createApiClient(options: ApiClientOptions) {
  const maxAttempts = options.maxAttempts ?? 8;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? pause;
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  return async function postJson(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiAnswer> {
    const payload = JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      let reason: string;
      let hinted: number | undefined;
      try {
        const response = await doFetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.apiKey}`, ...headers },
          body: payload,
        });
        const text = await response.text();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text for the message
        }
        if (!RETRYABLE(response.status))
          return { status: response.status, body: asBody(parsed), text, headers: response.headers };
        reason = `${response.status} ${(parsed as { error?: { code?: string } })?.error?.code ?? ''}`.trim();
        hinted = retryAfterMs(response.headers.get('retry-after'));
      } catch (error) {
        reason = (error as Error).message;
      }
      if (attempt >= maxAttempts) throw new ApiCallFailedError(`${path} failed ${attempt} times, last: ${reason}`);
      const backoff = backoffDelay(attempt - 1, { baseMs: 500, capMs: maxDelayMs });
      const delay = Math.min(maxDelayMs, Math.max(hinted ?? 0, backoff));
      options.onRetry?.(reason, delay);
      await sleep(delay);
    }
  };
}

export type PostJson = ReturnType<typeof createApiClient>;
