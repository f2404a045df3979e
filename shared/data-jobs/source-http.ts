/**
 * How the data jobs call the outside sources (the USPTO portal, CourtListener): a GET with the source's credential
 * header, at most a few tries, 429 and 503 answered by waiting what `Retry-After` asks (seconds or an HTTP date,
 * within a bound), other 5xx and network failures by backoff. A credential goes only to the source's own origin: a
 * redirect elsewhere (a signed download URL) is followed without it.
 */
import { backoffDelay, sleep as realSleep } from '../async/retry';

export interface SourceHttpOptions {
  /** Headers for the source's own origin only (the credential). */
  headers: Record<string, string>;
  /** Tries in all for one call, the first included. */
  attempts?: number;
  /** The longest wait a Retry-After may impose before the call gives up instead (the run's budget). */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Counts every request sent (the run's call budget). */
  onRequest?: (url: URL) => void;
}

/** The source answered with an error status that no retry cures, or kept failing. Never carries a credential. */
export class SourceHttpError extends Error {
  constructor(
    readonly url: string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'SourceHttpError';
  }
}

const MAX_REDIRECTS = 5;

/** Milliseconds a Retry-After header asks for, or undefined when it says nothing usable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The URL without its query (a signed URL's query is a credential too). */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export class SourceHttp {
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly origin: string,
    private readonly options: SourceHttpOptions,
  ) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? realSleep;
  }

  /** GET a path of the source (or an absolute URL), following redirects; the final 2xx response is returned. */
  async get(pathOrUrl: string, init: { accept?: string } = {}): Promise<Response> {
    const attempts = this.options.attempts ?? 4;
    let lastError: SourceHttpError | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let response: Response;
      let url = new URL(pathOrUrl, this.origin);
      try {
        ({ response, url } = await this.followRedirects(url, init.accept));
      } catch (error) {
        if (error instanceof SourceHttpError) throw error;
        lastError = new SourceHttpError(shown(url), undefined, `${shown(url)}: ${(error as Error).message}`);
        if (attempt < attempts) await this.sleep(backoffDelay(attempt, { baseMs: 500, capMs: 8000 }));
        continue;
      }
      if (response.ok) return response;
      await response.body?.cancel().catch(() => undefined);
      const status = response.status;
      lastError = new SourceHttpError(shown(url), status, `${shown(url)} answered ${status}`);
      const retryable = status === 429 || status >= 500;
      if (!retryable || attempt === attempts) break;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > (this.options.maxRetryAfterMs ?? 120_000)) {
        throw new SourceHttpError(
          shown(url),
          status,
          `${shown(url)} answered ${status} and asks to wait ${Math.ceil(asked / 1000)} s: left for the next run`,
        );
      }
      await this.sleep(asked ?? backoffDelay(attempt, { baseMs: 500, capMs: 8000 }));
    }
    throw lastError ?? new SourceHttpError(pathOrUrl, undefined, `${pathOrUrl}: no answer`);
  }

  async getJson(pathOrUrl: string): Promise<unknown> {
    const response = await this.get(pathOrUrl, { accept: 'application/json' });
    try {
      return await response.json();
    } catch {
      throw new SourceHttpError(pathOrUrl, response.status, `${pathOrUrl}: the answer is not JSON`);
    }
  }

  private async followRedirects(start: URL, accept: string | undefined): Promise<{ response: Response; url: URL }> {
    let url = start;
    const ownOrigin = new URL(this.origin).origin;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      this.options.onRequest?.(url);
      const headers: Record<string, string> = {
        ...(accept ? { accept } : {}),
        ...(url.origin === ownOrigin ? this.options.headers : {}),
      };
      const response = await this.fetch(url, { headers, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => undefined);
        url = new URL(location, url);
        continue;
      }
      return { response, url };
    }
    throw new SourceHttpError(shown(start), undefined, `${shown(start)}: more than ${MAX_REDIRECTS} redirects`);
  }
}
