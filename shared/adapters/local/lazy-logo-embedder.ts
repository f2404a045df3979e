/**
 * The learned logo embedder, loaded on first use: building the service costs nothing until a search or an ingest
 * needs the model (cold start), and onnxruntime-node is required only then, so a bundle that never embeds never
 * loads it.
 *
 * A model that cannot be loaded (the file missing, unreadable or corrupt) fails that call with
 * SearchBackendUnavailableError('unloadable'): the search answers from the descriptor index, degraded, and reports
 * it (the `ModelUnloadable` metric and its alarm). The load is tried again at most once every RETRY_LOAD_MS, so a
 * broken model costs the searches in between nothing.
 */
import type { Embedder } from '../../ports';
import { SearchBackendUnavailableError } from '../../imaging/image-errors';
import type { LearnedLogoEmbedder } from './learned-logo-embedder';

/** The learned embedder's name and length (LOGO_NET in learned-logo-embedder.ts, which this file does not load). */
export const LOGO_NET_NAME = 'logo-net';
export const LOGO_NET_DIMENSIONS = 128;
export const RETRY_LOAD_MS = 60_000;

export function lazyLearnedLogoEmbedder(
  modelPath: string,
  options: { now?: () => number; retryLoadMs?: number } = {},
): Embedder {
  const now = options.now ?? Date.now;
  const retryLoadMs = options.retryLoadMs ?? RETRY_LOAD_MS;
  let loading: Promise<LearnedLogoEmbedder> | undefined;
  let failed: { at: number; error: SearchBackendUnavailableError } | undefined;
  const model = () => {
    if (failed && now() - failed.at < retryLoadMs) return Promise.reject(failed.error);
    loading ??= import('./learned-logo-embedder')
      .then(({ LearnedLogoEmbedder }) => LearnedLogoEmbedder.load(modelPath))
      .then(
        (loaded) => {
          failed = undefined;
          return loaded;
        },
        (error: unknown) => {
          const unloadable = new SearchBackendUnavailableError(LOGO_NET_NAME, 'unloadable', { cause: error });
          failed = { at: now(), error: unloadable };
          loading = undefined;
          throw unloadable;
        },
      );
    return loading;
  };
  return {
    name: LOGO_NET_NAME,
    dimensions: LOGO_NET_DIMENSIONS,
    embed: async (image, options) => (await model()).embed(image, options),
    embedWindows: async (image, windows, options) => (await model()).embedWindows(image, windows, options),
  };
}
