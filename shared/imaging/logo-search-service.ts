/**
 * The logo search with its sources kept for the life of a function instance: the in-process indexes of each
 * market (loaded once, reloaded when a newer logo batch completes), the primary path where it is configured, the
 * data date and the CN coverage record.
 */
import type { Market } from '../marks/mark-record';
import type { DataBatchStore, Embedder, LogoIndexStore, VectorIndex } from '../ports';
import { decodeBase64Image } from './image-input';
import { checkUrlBeforeLookup, fetchImageSafely } from './fetch-image-safely';
import { checkImageBeforeWork, normalizeImage } from './normalize-image';
import { PerceptualDescriptorEmbedder } from './perceptual-descriptor';
import { searchLogos, type LogoSearchRequest, type LogoSearchResponse, type MarketSearch } from './search-logos';

export interface LogoSearchService {
  search(request: LogoSearchRequest, options?: { signal?: AbortSignal }): Promise<LogoSearchResponse>;
  /** Refuses (`url_not_allowed`) a url that the fetch would refuse without a DNS query, by the same rules. */
  checkUrl(url: string): void;
  /** Refuses an inline image that the search would refuse without decoding it (format, SVG safety and budget). */
  checkInlineImage(imageB64: string): void;
}

export interface LogoSearchSetup {
  batches: DataBatchStore;
  indexes: LogoIndexStore;
  /** CLIP and its remote index (AWS); absent locally, where the descriptor index is the search. */
  primary?: { embedder: Embedder; index: (market: Market) => VectorIndex };
  primaryBudgetMs?: number;
  /** For tests of URL intake against loopback servers only. */
  fetchOptions?: Parameters<typeof fetchImageSafely>[1];
}

export function createLogoSearchService(setup: LogoSearchSetup): LogoSearchService {
  const descriptor = new PerceptualDescriptorEmbedder();
  const loaded = new Map<Market, { batchId: string; search: Promise<MarketSearch> }>();
  const checkedAt = new Map<Market, number>();
  let latestLogos = new Map<Market, string>();

  const latestLogoBatch = async (market: Market): Promise<string> => {
    if (Date.now() - (checkedAt.get(market) ?? 0) > 60_000 || !latestLogos.has(market)) {
      checkedAt.set(market, Date.now());
      latestLogos = new Map(latestLogos).set(market, (await setup.batches.latestComplete(market, 'logos'))?.batchId ?? '');
    }
    return latestLogos.get(market)!;
  };

  const market = async (name: Market): Promise<MarketSearch> => {
    const batchId = await latestLogoBatch(name);
    const current = loaded.get(name);
    if (current && current.batchId === batchId) return current.search;
    // An index that cannot be loaded leaves the primary path alone (and a 503 if that fails too); it is tried
    // again on the next request.
    const search = setup.indexes.load(name, descriptor).then(
      (index) => ({ fallback: { embedder: descriptor, index } }),
      () => {
        loaded.delete(name);
        return {};
      },
    ).then((found: Pick<MarketSearch, 'fallback'>) => ({
      ...(setup.primary ? { primary: { embedder: setup.primary.embedder, index: setup.primary.index(name) } } : {}),
      ...found,
    }));
    loaded.set(name, { batchId, search });
    return search;
  };

  return {
    checkUrl: (url) => {
      checkUrlBeforeLookup(url, setup.fetchOptions);
    },
    checkInlineImage: (imageB64) => checkImageBeforeWork(decodeBase64Image(imageB64)),
    search: (request, options) =>
      searchLogos(
        {
          market,
          imageFromBase64: (text) => decodeBase64Image(text),
          imageFromUrl: (url) => fetchImageSafely(url, setup.fetchOptions),
          normalize: (bytes) => normalizeImage(bytes),
          dataAsOf: async (m) => (await setup.batches.latestComplete(m, 'logos'))?.dataAsOf ?? (await setup.batches.latestComplete(m, 'marks'))?.dataAsOf ?? '',
          coverage: async (m) => (await setup.batches.latestComplete(m, 'marks'))?.coverage,
          primaryBudgetMs: setup.primaryBudgetMs ?? 1500,
        },
        request,
        options,
      ),
  };
}
