/**
 * The learned logo embedder, loaded on first use: building the service costs nothing until a search or an ingest
 * needs the model (cold start), a model that cannot be loaded fails that call (the search falls back to the
 * descriptor), and onnxruntime-node is required only then, so a bundle that never embeds never loads it.
 */
import type { Embedder } from '../../ports';
import type { LearnedLogoEmbedder } from './learned-logo-embedder';

/** The learned embedder's name and length (LOGO_NET in learned-logo-embedder.ts, which this file does not load). */
export const LOGO_NET_NAME = 'logo-net';
export const LOGO_NET_DIMENSIONS = 128;

export function lazyLearnedLogoEmbedder(modelPath: string): Embedder {
  let loading: Promise<LearnedLogoEmbedder> | undefined;
  const model = () => {
    loading ??= import('./learned-logo-embedder')
      .then(({ LearnedLogoEmbedder }) => LearnedLogoEmbedder.load(modelPath))
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  };
  return {
    name: LOGO_NET_NAME,
    dimensions: LOGO_NET_DIMENSIONS,
    embed: async (image, options) => (await model()).embed(image, options),
    embedWindows: async (image, windows, options) => (await model()).embedWindows(image, windows, options),
  };
}
