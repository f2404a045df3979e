/**
 * Finds the registered marks a logo looks like.
 *
 * Input: the image (base64 or a public URL), the market (US or CN), an optional Nice class, how many results.
 * Output: matches by descending score in [0, 1], the data date, whether the search was degraded, and for CN the
 * coverage record of the beta store.
 *
 *  1. Take the image: decode the base64, or fetch the URL safely (public addresses only, capped, re-checked).
 *  2. Normalise it (decoded under pixel limits, flattened on white, trimmed, squared, resized); a picture with
 *     nothing on it is 422 `image_has_no_content` (the chain refunds the charge).
 *  3. Search the market with the primary path (the learned logo embedder and its index) within a time budget: the
 *     whole picture and the windows most likely to hold a logo (regions.ts) are embedded in one batch, each is
 *     searched, each mark is scored against the crowd of look-alikes its window meets (verify-candidates.ts) and
 *     keeps its best window; CN searches only marks in force.
 *  4. If the primary is slow, throttled or failing, answer from the in-process perceptual index with
 *     `degraded: true`; if that cannot answer either, 503 (the chain refunds the charge).
 *  5. Each mark's evidence in the answer (its best score, its lead over the crowd, whether it is first, whether
 *     the picture is busy) becomes the probability that the picture shows it (the path's calibration) and a verdict,
 *     `match`: likely, possible or none (calibration.ts). With `detail`, each result says where in the picture its
 *     mark was found (`region`, in the picture's pixels).
 */
import { ServiceUnavailableError } from '../errors';
import { SearchBackendUnavailableError } from './image-errors';
import type { Market } from '../marks/mark-record';
import type { CoverageRecord, Embedder, NormalizedImage, VectorIndex, VectorMatch } from '../ports';
import {
  EVIDENCE_DEPTH,
  evidenceOf,
  probabilityOf,
  verdictOf,
  type Calibration,
  type MatchEvidence,
  type MatchVerdict,
} from './calibration';
import { plainBackground } from './content-proposals';
import { TRIM_THRESHOLD } from './normalize-image';
import { WHOLE, type Window } from './regions';
import { VERIFY_RANK, verifyCandidates } from './verify-candidates';

export interface SearchPath {
  embedder: Embedder;
  index: VectorIndex;
  /** Turns the similarity into a probability and a verdict; absent for an uncalibrated stand-in. */
  calibration?: Calibration;
  /**
   * The windows searched (the whole picture first), fixed or chosen for each picture (regions.ts); only the whole
   * picture unless the embedder embeds windows. Where windows are searched, each mark is scored against the crowd of
   * its best window (verify-candidates.ts), and the calibration is the one fit on that score.
   */
  windows?: readonly Window[] | ((image: NormalizedImage) => readonly Window[]);
  /** Measurement only (eval:logos's ablation): windows searched, each mark scored by its best similarity alone. */
  unverified?: boolean;
}

export interface MarketSearch {
  /** Absent where the in-process search is the only one (the local default), or where its index failed to load. */
  primary?: SearchPath;
  /** The primary is configured but its index could not be loaded: the fallback's answer is degraded. */
  primaryFailed?: boolean;
  fallback?: SearchPath;
}

/** Why a search was answered by the fallback: the primary's backend and what went wrong with it. */
export interface DegradedCause {
  backend: string;
  reason: 'timeout' | 'throttled' | 'failed' | 'unloadable';
  /** What was thrown, where something was. */
  error?: unknown;
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
  /** Adds `region` to each result. */
  detail?: boolean;
}

/** A box in the pixels of the picture as sent (EXIF orientation applied): left, top, width, height. */
export interface PictureRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LogoResult {
  serial: string;
  mark: string;
  /** The calibrated probability; on a path with no calibration (the CLIP option), the raw similarity. */
  score: number;
  /** Absent on a path with no calibration (the CLIP option): its raw similarity says nothing on its own. */
  match?: MatchVerdict;
  nice: string;
  is_live: 0 | 1;
  jurisdiction?: string;
  region?: PictureRegion;
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

interface FoundMark extends VectorMatch {
  window: Window;
}

/** The windows of one picture, embedded in one run. */
async function embedded(
  path: SearchPath,
  image: NormalizedImage,
  signal?: AbortSignal,
): Promise<{ windows: readonly Window[]; vectors: Float32Array[] }> {
  const chosen = typeof path.windows === 'function' ? path.windows(image) : path.windows;
  const windows = path.embedder.embedWindows && chosen ? chosen : [WHOLE];
  const vectors =
    path.embedder.embedWindows && windows.length > 1
      ? await path.embedder.embedWindows(image, windows, { signal })
      : [await path.embedder.embed(image, { signal })];
  return { windows, vectors };
}

/**
 * Every window searched, of the picture and of its reversed form where it has one (a light logo on a dark ground);
 * each mark keeps its best window (the first, the whole picture, wins a tie). Where windows are searched (the path
 * has them and its embedder embeds them), the score of a mark in a window is verified against that window's crowd
 * (verify-candidates.ts); on the whole picture alone it is the similarity.
 */
async function searchOn(
  path: SearchPath,
  image: NormalizedImage,
  query: { topK: number; nice?: string; liveOnly: boolean },
  signal?: AbortSignal,
): Promise<FoundMark[]> {
  // One after the other: each is one batched run of the model, which has a thread of its own to use.
  const pictures = [await embedded(path, image, signal)];
  if (image.reversed) pictures.push(await embedded(path, image.reversed, signal));
  const windows = pictures.flatMap((p) => p.windows);
  const vectors = pictures.flatMap((p) => p.vectors);
  // Every window asks for at least EVIDENCE_DEPTH marks: the calibration reads a mark against the rest of the answer,
  // and the verification a mark against the VERIFY_RANK-th of its window.
  const asked = { ...query, topK: Math.max(query.topK, EVIDENCE_DEPTH, VERIFY_RANK), signal };
  const answers = await Promise.all(vectors.map((vector) => path.index.query(vector, asked)));
  if (path.windows !== undefined && path.embedder.embedWindows && !path.unverified)
    return verifyCandidates(windows, answers);
  const best = new Map<string, FoundMark>();
  for (const [w, matches] of answers.entries()) {
    for (const match of matches) {
      const held = best.get(match.serial);
      if (!held || match.score > held.score) best.set(match.serial, { ...match, window: windows[w]! });
    }
  }
  return [...best.values()];
}

/**
 * The box of what stands out from the plain background inside `window` (pixels differing from it by more than the
 * trim threshold, a pixel with no such 4-neighbour taken for noise), in fractions of the square; undefined on a
 * busy picture (nothing stands apart there: the window is the answer) or when nothing stands out in the window. A
 * light logo on a dark ground is read on its reversed form, where the ground is white.
 */
export function foregroundIn(image: NormalizedImage, window: Window): Window | undefined {
  const plain = plainBackground(image);
  const picture = plain ? image : image.reversed;
  const bg = plain ?? (image.reversed ? plainBackground(image.reversed) : undefined);
  if (!picture || !bg) return undefined;
  const { width, height, rgb } = picture;
  const x0 = Math.max(0, Math.floor(window.x * width));
  const y0 = Math.max(0, Math.floor(window.y * height));
  const x1 = Math.min(width, Math.ceil((window.x + window.w) * width));
  const y1 = Math.min(height, Math.ceil((window.y + window.h) * height));
  const stands = (x: number, y: number) => {
    if (x < x0 || x >= x1 || y < y0 || y >= y1) return false;
    const i = (y * width + x) * 3;
    return (
      Math.abs(rgb[i]! - bg[0]!) > TRIM_THRESHOLD ||
      Math.abs(rgb[i + 1]! - bg[1]!) > TRIM_THRESHOLD ||
      Math.abs(rgb[i + 2]! - bg[2]!) > TRIM_THRESHOLD
    );
  };
  let [left, top, right, bottom] = [x1, y1, -1, -1];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!stands(x, y)) continue;
      if (!(stands(x - 1, y) || stands(x + 1, y) || stands(x, y - 1) || stands(x, y + 1))) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) return undefined;
  return { x: left / width, y: top / height, w: (right + 1 - left) / width, h: (bottom + 1 - top) / height };
}

/**
 * Where a mark was found, in the pixels of the picture as sent (EXIF orientation applied; an SVG in its rendering):
 * on a plain background the box of what stands out inside the mark's best window (`foregroundIn`), on a busy picture
 * the window itself; mapped back through the normalisation (the content box, padded square) and kept inside the
 * content box.
 */
export function regionInPicture(image: NormalizedImage, window: Window): PictureRegion | undefined {
  const box = image.content;
  if (!box) return undefined;
  const found = foregroundIn(image, window) ?? window;
  const side = Math.max(box.width, box.height);
  const left = box.left - (side - box.width) / 2;
  const top = box.top - (side - box.height) / 2;
  const x0 = Math.max(box.left, left + found.x * side);
  const y0 = Math.max(box.top, top + found.y * side);
  const x1 = Math.min(box.left + box.width, left + (found.x + found.w) * side);
  const y1 = Math.min(box.top + box.height, top + (found.y + found.h) * side);
  return {
    x: Math.round(x0),
    y: Math.round(y0),
    width: Math.max(1, Math.round(x1 - x0)),
    height: Math.max(1, Math.round(y1 - y0)),
  };
}

/** One mark of an answer with its evidence, before ranking and the limit (what the calibration is fit on). */
export interface AnsweredMark extends MatchEvidence {
  serial: string;
}

export async function searchLogos(
  sources: LogoSearchSources,
  request: LogoSearchRequest,
  options: {
    signal?: AbortSignal;
    onEvidence?: (marks: AnsweredMark[]) => void;
    /** Told when the fallback answers instead of the primary, and why. */
    onDegraded?: (cause: DegradedCause) => void;
  } = {},
): Promise<LogoSearchResponse> {
  const bytes =
    request.image_b64 !== undefined
      ? sources.imageFromBase64(request.image_b64)
      : await sources.imageFromUrl(request.url!);
  const image = await sources.normalize(bytes);
  const market = await sources.market(request.country);
  const query = {
    topK: request.limit,
    ...(request.nice ? { nice: request.nice } : {}),
    liveOnly: request.country === 'CN',
  };

  let matches: FoundMark[] | undefined;
  let degraded = false;
  let answered: SearchPath | undefined;
  if (market.primary) {
    const budget = AbortSignal.timeout(sources.primaryBudgetMs);
    const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
    try {
      matches = await searchOn(market.primary, image, query, signal);
      answered = market.primary;
    } catch (error) {
      if (!(error instanceof SearchBackendUnavailableError) && !budget.aborted) throw error;
      degraded = true;
      options.onDegraded?.(
        error instanceof SearchBackendUnavailableError
          ? { backend: error.backend, reason: error.reason, error }
          : { backend: market.primary.embedder.name, reason: 'timeout' },
      );
    }
  } else if (market.primaryFailed) {
    degraded = true;
    options.onDegraded?.({ backend: 'primary index', reason: 'failed' });
  }
  if (!matches) {
    if (!market.fallback) throw new ServiceUnavailableError('Image search');
    try {
      matches = await searchOn(market.fallback, image, query, options.signal);
      answered = market.fallback;
    } catch (error) {
      if (error instanceof SearchBackendUnavailableError) throw new ServiceUnavailableError('Image search');
      throw error;
    }
  }

  const [dataAsOf, coverage] = await Promise.all([
    sources.dataAsOf(request.country),
    request.country === 'CN' ? sources.coverage('CN') : undefined,
  ]);
  const calibration = answered?.calibration;
  const found = matches.filter((m) => !query.liveOnly || m.isLive).sort((a, b) => b.score - a.score);
  // Busy: no plain background on the picture, nor on its reversed form (a white logo on black is plain there).
  const busy =
    plainBackground(image) === undefined && (!image.reversed || plainBackground(image.reversed) === undefined);
  const evidence = evidenceOf(
    found.map((m) => Math.min(1, Math.max(0, m.score))),
    busy,
  );
  options.onEvidence?.(found.map((m, i) => ({ serial: m.serial, ...evidence[i]! })));
  const results: LogoResult[] = found
    .map((m, i) => {
      const { similarity } = evidence[i]!;
      return { m, similarity, score: calibration ? probabilityOf(calibration, evidence[i]!) : similarity };
    })
    .sort((a, b) => b.score - a.score || b.similarity - a.similarity)
    .slice(0, request.limit)
    .map(({ m, score }) => {
      const region = request.detail ? regionInPicture(image, m.window) : undefined;
      const match = verdictOf(calibration, score);
      return {
        serial: m.serial,
        mark: m.mark,
        score: Math.round(score * 10_000) / 10_000,
        ...(match ? { match } : {}),
        nice: m.nice.join(','),
        is_live: m.isLive ? 1 : 0,
        ...(request.country === 'CN' ? { jurisdiction: 'CN' } : {}),
        ...(region ? { region } : {}),
      };
    });
  return {
    results,
    count: results.length,
    data_as_of: dataAsOf,
    degraded,
    ...(request.country === 'CN' && coverage
      ? {
          country: coverage.country,
          source: coverage.source,
          partial: coverage.partial,
          coverage_note: coverage.coverage_note,
        }
      : {}),
  };
}
