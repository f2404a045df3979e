/**
 * The logo search with its sources kept for the life of a function instance: the in-process indexes of each
 * market (loaded once, reloaded when a newer logo batch completes), the primary path where it is configured, the
 * data date and the CN coverage record.
 *
 * Paths: the primary is the learned embedder (in-process) over its own index, S3 Vectors in AWS or the in-process
 * usearch index (every window of regions.ts searched in-process; the whole picture and the 3 x 3 grid against a
 * remote index, to keep the queries per search at 10); or CLIP on SageMaker with S3 Vectors where that is
 * configured instead. The fallback is always the in-process perceptual descriptor index. Each path is read with the
 * calibration of its search fit at the index size nearest its index's (logo-calibrations.ts).
 */
import type { Market } from '../marks/mark-record';
import type { DataBatchStore, Embedder, LogoIndexStore, NormalizedImage, VectorIndex } from '../ports';
import type { Calibration } from './calibration';
import { calibrationFor, calibrationKey } from './logo-calibrations';
import { candidateWindows, REMOTE_WINDOWS } from './regions';
import { decodeBase64Image } from './image-input';
import { checkUrlBeforeLookup, fetchImageSafely } from './fetch-image-safely';
import { checkImageBeforeWork, normalizeImage } from './normalize-image';
import { PerceptualDescriptorEmbedder } from './perceptual-descriptor';
import {
  searchLogos,
  type DegradedCause,
  type LogoSearchRequest,
  type LogoSearchResponse,
  type MarketSearch,
} from './search-logos';

export interface LogoSearchService {
  search(
    request: LogoSearchRequest,
    options?: { signal?: AbortSignal; onDegraded?: (cause: DegradedCause) => void },
  ): Promise<LogoSearchResponse>;
  /** Refuses (`url_not_allowed`) a url that the fetch would refuse without a DNS query, by the same rules. */
  checkUrl(url: string): void;
  /** Refuses an inline image that the search would refuse without decoding it (format, SVG safety and budget). */
  checkInlineImage(imageB64: string): void;
}

export interface LogoSearchSetup {
  batches: DataBatchStore;
  indexes: LogoIndexStore;
  /**
   * The primary embedder and, where it is remote, its index (absent: the in-process index of the index store).
   * Absent altogether: the descriptor index is the search.
   */
  primary?: { embedder: Embedder; index?: (market: Market) => VectorIndex };
  /**
   * Calibrations by embedder name (default: the shipped ones, each search's fit at the index size nearest its
   * index's; logo-calibrations.ts).
   */
  calibrations?: Readonly<Record<string, Calibration>>;
  primaryBudgetMs?: number;
  /**
   * Told of each search the fallback answered because the primary's model could not be loaded (once a minute at
   * most, with the cause): the function logs it as a warning.
   */
  onModelUnloadable?: (cause: unknown) => void;
  /** For tests of URL intake against loopback servers only. */
  fetchOptions?: Parameters<typeof fetchImageSafely>[1];
}

/** The designs an index holds, where it says (the in-process index does; a remote one does not). */
function designsIn(index: VectorIndex): number | undefined {
  const size = (index as VectorIndex & { size?: unknown }).size;
  return typeof size === 'number' ? size : undefined;
}

export function createLogoSearchService(setup: LogoSearchSetup): LogoSearchService {
  const descriptor = new PerceptualDescriptorEmbedder();
  const primary = setup.primary;
  // A remote index answers one query per window over the network: the first REMOTE_WINDOWS windows only, scored by
  // the calibration fit on that search.
  const primaryWindowBudget = primary?.index ? REMOTE_WINDOWS : undefined;
  const primaryWindows = (image: NormalizedImage) => candidateWindows(image, primaryWindowBudget);
  const loaded = new Map<Market, { batchId: string; search: Promise<MarketSearch> }>();
  const checkedAt = new Map<Market, number>();
  let latestLogos = new Map<Market, string>();

  const latestLogoBatch = async (market: Market): Promise<string> => {
    if (Date.now() - (checkedAt.get(market) ?? 0) > 60_000 || !latestLogos.has(market)) {
      checkedAt.set(market, Date.now());
      latestLogos = new Map(latestLogos).set(
        market,
        (await setup.batches.latestComplete(market, 'logos'))?.batchId ?? '',
      );
    }
    return latestLogos.get(market)!;
  };

  const market = async (name: Market): Promise<MarketSearch> => {
    const batchId = await latestLogoBatch(name);
    const current = loaded.get(name);
    if (current && current.batchId === batchId) return current.search;
    // An index that cannot be loaded leaves the other path alone (and a 503 if that fails too); it is tried
    // again on the next request.
    const loadPath = async (embedder: Embedder, remote?: (market: Market) => VectorIndex) => {
      try {
        const index = remote ? remote(name) : await setup.indexes.load(name, embedder, { readOnly: true });
        const key = calibrationKey(embedder.name, embedder === primary?.embedder ? primaryWindowBudget : undefined);
        const calibration = setup.calibrations ? setup.calibrations[key] : calibrationFor(key, designsIn(index));
        return {
          embedder,
          index,
          ...(calibration ? { calibration } : {}),
          ...(embedder === primary?.embedder ? { windows: primaryWindows } : {}),
        };
      } catch {
        loaded.delete(name);
        return undefined;
      }
    };
    const search = Promise.all([
      primary ? loadPath(primary.embedder, primary.index) : undefined,
      loadPath(descriptor),
    ]).then(
      ([primaryPath, fallback]): MarketSearch => ({
        ...(primaryPath ? { primary: primaryPath } : primary ? { primaryFailed: true } : {}),
        ...(fallback ? { fallback } : {}),
      }),
    );
    loaded.set(name, { batchId, search });
    return search;
  };

  let modelUnloadableToldAt = Number.NEGATIVE_INFINITY;
  const degradedBy = (cause: DegradedCause) => {
    if (cause.reason !== 'unloadable' || Date.now() - modelUnloadableToldAt < 60_000) return;
    modelUnloadableToldAt = Date.now();
    setup.onModelUnloadable?.(cause.error ?? cause);
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
          dataAsOf: async (m) =>
            (await setup.batches.latestComplete(m, 'logos'))?.dataAsOf ??
            (await setup.batches.latestComplete(m, 'marks'))?.dataAsOf ??
            '',
          coverage: async (m) => (await setup.batches.latestComplete(m, 'marks'))?.coverage,
          primaryBudgetMs: setup.primaryBudgetMs ?? 1500,
        },
        request,
        {
          ...(options?.signal ? { signal: options.signal } : {}),
          onDegraded: (cause) => {
            degradedBy(cause);
            options?.onDegraded?.(cause);
          },
        },
      ),
  };
}
