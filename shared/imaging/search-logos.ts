/**
 * Finds the registered marks a logo looks like.
 *
 * Input: the image (base64 or a public URL), the market (US or CN), an optional Nice class, how many results.
 * Output: matches by descending score in [0, 1], the data date, whether the search was degraded, and for CN the
 * coverage record of the beta store.
 *
 *  1. Take the image: decode the base64, or fetch the URL safely (public addresses only, capped, re-checked).
 *  2. Normalise it (decoded under pixel limits, flattened on white, trimmed, squared, resized).
 *  3. Search the market with the primary embedder and index (CLIP and S3 Vectors in AWS) within a time budget;
 *     CN searches only marks in force.
 *  4. If the primary is slow, throttled or failing, answer from the in-process perceptual index with
 *     `degraded: true`; if that cannot answer either, 503 (the chain refunds the charge).
 */
import { SearchBackendUnavailableError, ServiceUnavailableError } from '../errors';
import type { Market } from '../marks/mark-record';
import type { CoverageRecord, Embedder, NormalizedImage, VectorIndex, VectorMatch } from '../ports';

export interface SearchPath {
  embedder: Embedder;
  index: VectorIndex;
}

export interface MarketSearch {
  /** Absent where the in-process search is the only one (the local default). */
  primary?: SearchPath;
  fallback?: SearchPath;
}

export interface LogoSearchSources {
  market(market: Market): Promise<MarketSearch>;
  imageFromBase64(text: string): Buffer;
  imageFromUrl(url: string): Promise<Buffer>;
  normalize(bytes: Buffer): Promise<NormalizedImage>;
  dataAsOf(market: Market): Promise<string>;
  coverage(market: Market): Promise<CoverageRecord | undefined>;
  /** How long the primary path may take before the fallback answers. */
  primaryBudgetMs: number;
}

export interface LogoSearchRequest {
  image_b64?: string;
  url?: string;
  country: Market;
  nice?: string;
  limit: number;
}

export interface LogoResult {
  serial: string;
  mark: string;
  score: number;
  nice: string;
  is_live: 0 | 1;
  jurisdiction?: string;
}

export interface LogoSearchResponse {
  results: LogoResult[];
  count: number;
  data_as_of: string;
  degraded: boolean;
  country?: string;
  source?: string;
  partial?: boolean;
  coverage_note?: string;
}

async function searchOn(path: SearchPath, image: NormalizedImage, query: { topK: number; nice?: string; liveOnly: boolean }, signal?: AbortSignal): Promise<VectorMatch[]> {
  const vector = await path.embedder.embed(image, { signal });
  return path.index.query(vector, { ...query, signal });
}

export async function searchLogos(sources: LogoSearchSources, request: LogoSearchRequest, options: { signal?: AbortSignal } = {}): Promise<LogoSearchResponse> {
  const bytes = request.image_b64 !== undefined ? sources.imageFromBase64(request.image_b64) : await sources.imageFromUrl(request.url!);
  const image = await sources.normalize(bytes);
  const market = await sources.market(request.country);
  const query = { topK: request.limit, ...(request.nice ? { nice: request.nice } : {}), liveOnly: request.country === 'CN' };

  let matches: VectorMatch[] | undefined;
  let degraded = false;
  if (market.primary) {
    const budget = AbortSignal.timeout(sources.primaryBudgetMs);
    const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
    try {
      matches = await searchOn(market.primary, image, query, signal);
    } catch (error) {
      if (!(error instanceof SearchBackendUnavailableError) && !budget.aborted) throw error;
      degraded = true;
    }
  }
  if (!matches) {
    if (!market.fallback) throw new ServiceUnavailableError('Image search');
    try {
      matches = await searchOn(market.fallback, image, query, options.signal);
    } catch (error) {
      if (error instanceof SearchBackendUnavailableError) throw new ServiceUnavailableError('Image search');
      throw error;
    }
  }

  const [dataAsOf, coverage] = await Promise.all([sources.dataAsOf(request.country), request.country === 'CN' ? sources.coverage('CN') : undefined]);
  const results: LogoResult[] = matches
    .filter((m) => !query.liveOnly || m.isLive)
    .sort((a, b) => b.score - a.score)
    .slice(0, request.limit)
    .map((m) => ({
      serial: m.serial,
      mark: m.mark,
      score: Math.round(Math.min(1, Math.max(0, m.score)) * 10_000) / 10_000,
      nice: m.nice.join(','),
      is_live: m.isLive ? 1 : 0,
      ...(request.country === 'CN' ? { jurisdiction: 'CN' } : {}),
    }));
  return {
    results,
    count: results.length,
    data_as_of: dataAsOf,
    degraded,
    ...(request.country === 'CN' && coverage
      ? { country: coverage.country, source: coverage.source, partial: coverage.partial, coverage_note: coverage.coverage_note }
      : {}),
  };
}
