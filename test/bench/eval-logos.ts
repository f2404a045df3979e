/**
 * `npm run eval:logos`: what a seller faces, on marks the learned embedder never saw.
 *
 * The test brands of builders/logo-embedder/render-logos.ts (held out from training by brand, and from the
 * calibration, which is fit on the validation brands): 80% of them registered (every design indexed), 20% not.
 * Seller pictures of sampled designs (builders/logo-embedder/seller-pictures.ts) go through the service's own search
 * (normalise, regions, index, calibration) on each path: the learned embedder with region search (the primary) and
 * the perceptual descriptor (the degraded path). Cross-design: only the first design of each brand registered,
 * queried with its other designs. Open set: the first result's calibrated score separates registered from
 * unregistered queries (AUROC), and "likely" is checked for precision and recall.
 *
 * EVAL_QUERIES (default 200) designs are sampled per perturbation.
 *
 * `--distractors DIR`: a folder of logo indexes written by ingest (a register-scale corpus of
 * builders/logo-embedder/register-scale-logos.ts ingested into it): each path's index is that folder's index of its
 * embedder with the test brands added, so every query meets the register's crowd. `--quick`: the shipped in-process
 * path and the degraded one only (no S3 Vectors columns, no ablation). With either, the section is printed, not
 * written into BENCHMARKS.md.
 */
import { parseArgs } from 'node:util';
import { LearnedLogoEmbedder } from '../../shared/adapters/local/learned-logo-embedder';
import { FolderUsearchIndexStore } from '../../shared/adapters/local/usearch-index-store';
import { UsearchVectorIndex } from '../../shared/adapters/local/usearch-vector-index';
import { calibrationKey, fitFor } from '../../shared/imaging/logo-calibrations';
import { PerceptualDescriptorEmbedder } from '../../shared/imaging/perceptual-descriptor';
import { CANDIDATE_WINDOWS, candidateWindows, REMOTE_WINDOWS } from '../../shared/imaging/regions';
import type { SearchPath } from '../../shared/imaging/search-logos';
import type { Embedder, NormalizedImage } from '../../shared/ports';
import {
  crossDesignQueries,
  indexOf,
  loadBenchMarks,
  runQueries,
  type BenchMarks,
  type BenchQuery,
} from '../../builders/logo-embedder/logo-benchmark';
import { calibrationTable, likelyFigures, openSetAuroc, recallAt } from '../../builders/logo-embedder/open-set-metrics';
import { MODEL } from '../../builders/logo-embedder/calibrate';
import { SELLER_PERTURBATIONS } from '../../builders/logo-embedder/seller-pictures';
import { machineLine, percentile, runAndWriteSection } from './bench-support';

export interface EvalOptions {
  /** A folder of logo indexes (a register-scale corpus ingested); the test brands are added to its marks. */
  distractors?: string;
  /** The shipped in-process path and the degraded one only: no S3 Vectors columns, no ablation. */
  quick?: boolean;
}

/** A fresh copy of the distractors' index of `embedder`, or undefined when there are none. */
type BaseIndex = (embedder: Embedder) => Promise<UsearchVectorIndex | undefined>;

function baseIndexOf(folder: string | undefined): BaseIndex {
  return async (embedder) => {
    if (!folder) return undefined;
    const index = await new FolderUsearchIndexStore(folder).load('US', embedder);
    if (!(index instanceof UsearchVectorIndex) || index.size === 0)
      throw new Error(`no ${embedder.name} index in ${folder} (ingest the corpus there first)`);
    return index;
  };
}

const QUERIES = Number(process.env.EVAL_QUERIES ?? 200);
/** The perturbation of a light logo on a dark or coloured ground (seller-pictures.ts). */
const INVERTED = 'light on a dark or coloured ground';
const SEED = 11;
const f3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : 'n/a');

interface PathReport {
  name: string;
  queries: BenchQuery[];
  /** The designs in the index its calibration was fit over. */
  calibratedAt?: number;
}

/**
 * One search path over the test brands: `regions` searches the windows of candidateWindows (at most `maxWindows`, as
 * against a remote index, with the calibration fit for that budget), otherwise the whole picture.
 */
async function evaluatePath(
  embedder: Embedder,
  regions: boolean,
  marks: BenchMarks,
  base: BaseIndex,
  maxWindows?: number,
): Promise<PathReport> {
  const index = await indexOf(embedder, marks.registered, await base(embedder));
  const fit = fitFor(calibrationKey(embedder.name, maxWindows), index.size);
  const calibration = fit?.calibration;
  const path: SearchPath = {
    embedder,
    index,
    ...(calibration ? { calibration } : {}),
    ...(regions ? { windows: (image: NormalizedImage) => candidateWindows(image, maxWindows) } : {}),
  };
  const queries = [
    ...(await runQueries(path, marks, { queriesPerPerturbation: QUERIES, seed: SEED })),
    ...(await crossDesignQueries(path, marks, QUERIES, await base(embedder))),
  ];
  const name = !regions
    ? embedder.name
    : maxWindows === undefined
      ? `${embedder.name} + regions`
      : `${embedder.name}, first ${maxWindows} windows (S3 Vectors)`;
  return { name, queries, ...(fit ? { calibratedAt: fit.indexDesigns } : {}) };
}

/**
 * What each part of the learned path buys on the two hard pictures: the whole picture alone, the grid of windows,
 * the windows around blobs, the verification against each window's crowd, and the centring (the same model
 * uncentred). No calibration: the AUROC there is the score's own (the similarity, or the verified score), before the
 * calibration reads the rest of the answer and the kind of picture.
 */
async function ablationTable(marks: BenchMarks, centredModel: Embedder, uncentred: Embedder): Promise<string[]> {
  const pictures = SELLER_PERTURBATIONS.filter(([, , group]) => group === 'picture');
  const centredIndex = await indexOf(centredModel, marks.registered);
  const variants: [string, SearchPath][] = [
    ['whole picture only', { embedder: centredModel, index: centredIndex }],
    [
      '+ grid of windows',
      { embedder: centredModel, index: centredIndex, windows: CANDIDATE_WINDOWS, unverified: true },
    ],
    [
      '+ blob windows (plain background) or 0.45 and 0.35 windows (busy)',
      { embedder: centredModel, index: centredIndex, windows: candidateWindows, unverified: true },
    ],
    [
      "+ each mark verified against its window's crowd: shipped",
      { embedder: centredModel, index: centredIndex, windows: candidateWindows },
    ],
    [
      'shipped windows, model not centred',
      { embedder: uncentred, index: await indexOf(uncentred, marks.registered), windows: candidateWindows },
    ],
  ];
  const lines = [
    `| learned path | ${pictures.map(([name]) => `${name} R@1 | R@10`).join(' | ')} | AUROC, these pictures |`,
    `|---|${pictures.map(() => '---:|---:').join('|')}|---:|`,
  ];
  for (const [name, path] of variants) {
    const queries = await runQueries(path, marks, {
      queriesPerPerturbation: QUERIES,
      seed: SEED,
      perturbations: pictures,
    });
    const cells = pictures.map(([p]) => {
      const chosen = queries.filter((q) => q.perturbation === p);
      return `${f3(recallAt(chosen, 1))} | ${f3(recallAt(chosen, 10))}`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} | ${f3(openSetAuroc(queries))} |`);
  }
  return lines;
}

function recallTable(reports: PathReport[]): string[] {
  const names = [...SELLER_PERTURBATIONS.map(([name]) => name), 'another design of the mark'];
  const header = `| query (registered brands) | queries | ${reports.map((r) => `${r.name} R@1 | ${r.name} R@10`).join(' | ')} |`;
  const rule = `|---|---:|${reports.map(() => '---:|---:').join('|')}|`;
  const row = (label: string, pick: (q: BenchQuery) => boolean) => {
    const counts = reports[0]!.queries.filter((q) => pick(q) && q.registered).length;
    const cells = reports.map((r) => {
      const chosen = r.queries.filter(pick);
      return `${f3(recallAt(chosen, 1))} | ${f3(recallAt(chosen, 10))}`;
    });
    return `| ${label} | ${counts} | ${cells.join(' | ')} |`;
  };
  return [
    header,
    rule,
    ...names.map((name) => row(name, (q) => q.perturbation === name)),
    row('**average of rotation, mirror, scale, crop, colour, JPEG, inversion**', (q) => q.group === 'simple'),
  ];
}

function openSetTable(reports: PathReport[]): string[] {
  const lines = [
    '| path | queries (registered / unregistered) | AUROC, all pictures | AUROC, file itself | AUROC, busy picture | "likely" precision (answers; 95% lower bound) | "likely" recall | unregistered answered "likely" | top-1 score p50 registered / unregistered |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of reports) {
    const open = r.queries.filter((q) => q.group !== 'cross-design');
    const reg = open
      .filter((q) => q.registered)
      .map((q) => q.results[0]?.score ?? 0)
      .sort((a, b) => a - b);
    const unreg = open
      .filter((q) => !q.registered)
      .map((q) => q.results[0]?.score ?? 0)
      .sort((a, b) => a - b);
    const likely = likelyFigures(open);
    const unregistered = open.filter((q) => !q.registered);
    const falseLikely = unregistered.filter((q) => q.results[0]?.match === 'likely').length;
    lines.push(
      `| ${r.name} | ${reg.length} / ${unreg.length} | ${f3(openSetAuroc(open))} | ${f3(openSetAuroc(open.filter((q) => q.group === 'file')))} | ` +
        `${f3(openSetAuroc(open.filter((q) => q.perturbation.startsWith('30%'))))} | ${f3(likely.precision)} (${likely.likely}; ${f3(likely.precisionAtLeast)}) | ${f3(likely.recall)} | ` +
        `${f3(falseLikely / Math.max(1, unregistered.length))} (${falseLikely}) | ` +
        `${f3(percentile(reg, 50))} / ${f3(percentile(unreg, 50))} |`,
    );
  }
  return lines;
}

/** Serials of the register-scale corpus (register-scale-logos.ts): a first answer there is a distractor. */
const isDistractor = (serial: string | undefined) => serial?.startsWith('RSL-') === true;

/**
 * How often a distractor answered first, and how often with "likely", for registered queries (their own mark pushed
 * down) and unregistered ones; with a few of the wrong "likely" answers, to be looked at.
 */
function distractorLines(reports: PathReport[]): string[] {
  const lines = [
    '| path | registered: a distractor first | registered: a distractor "likely" | unregistered: a distractor first | unregistered: a distractor "likely" |',
    '|---|---:|---:|---:|---:|',
  ];
  const examples: string[] = [];
  for (const r of reports) {
    const open = r.queries.filter((q) => q.group !== 'cross-design');
    const cell = (registered: boolean, likelyOnly: boolean) => {
      const chosen = open.filter((q) => q.registered === registered);
      const hit = chosen.filter(
        (q) => isDistractor(q.results[0]?.serial) && (!likelyOnly || q.results[0]?.match === 'likely'),
      ).length;
      return `${f3(hit / Math.max(1, chosen.length))} (${hit})`;
    };
    lines.push(
      `| ${r.name} | ${cell(true, false)} | ${cell(true, true)} | ${cell(false, false)} | ${cell(false, true)} |`,
    );
    for (const q of open) {
      const top = q.results[0];
      if (examples.length < 12 && top && isDistractor(top.serial) && top.match === 'likely')
        examples.push(
          `${r.name}: ${q.registered ? 'registered' : 'unregistered'} ${q.brand} (${q.perturbation}) -> ${top.serial} "${top.mark}" ${top.score}`,
        );
    }
  }
  return [
    ...lines,
    '',
    ...(examples.length
      ? ['Wrong "likely" answers on a distractor (first 12):', '', ...examples.map((e) => `- ${e}`)]
      : []),
  ];
}

function calibrationLines(report: PathReport): string[] {
  const rows = calibrationTable(report.queries.filter((q) => q.group !== 'cross-design'));
  return [
    `| ${report.name}: score | results | mean score | observed share that is the query's mark |`,
    '|---|---:|---:|---:|',
    ...rows
      .filter((r) => r.results > 0)
      .map(
        (r) => `| ${r.from.toFixed(1)}-${r.to.toFixed(1)} | ${r.results} | ${f3(r.meanScore)} | ${f3(r.observed)} |`,
      ),
  ];
}

export async function evaluateHeldOutLogos(options: EvalOptions = {}): Promise<string> {
  const started = Date.now();
  const marks = await loadBenchMarks('test');
  const learned = await LearnedLogoEmbedder.load(MODEL);
  const uncentred = await LearnedLogoEmbedder.load(MODEL, { centre: { model_sha256: 'none', vector: [] } });
  const base = baseIndexOf(options.distractors);
  const descriptor = new PerceptualDescriptorEmbedder();
  const distractors = options.distractors ? [(await base(learned))!.size, (await base(descriptor))!.size] : [0, 0];
  const reports = [
    await evaluatePath(learned, true, marks, base),
    ...(options.quick ? [] : [await evaluatePath(learned, true, marks, base, REMOTE_WINDOWS)]),
    await evaluatePath(descriptor, false, marks, base),
  ];
  const ablation = options.quick ? [] : await ablationTable(marks, learned, uncentred);
  await Promise.all([learned.close(), uncentred.close()]);
  const latencies = reports[0]!.queries.map((q) => q.ms).sort((a, b) => a - b);
  const reversed = reports[0]!.queries
    .filter((q) => q.perturbation === INVERTED)
    .map((q) => q.ms)
    .sort((a, b) => a - b);
  const designs = [...marks.registered.values()].flat().length;
  return [
    `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`${commandLine(options)}\` (${Math.round((Date.now() - started) / 1000)} s).`,
    '',
    ...(options.distractors
      ? [
          `Distractors: ${distractors[0]!.toLocaleString('en')} designs in the learned index, ${distractors[1]!.toLocaleString('en')} in the descriptor's (${options.distractors}); the test brands are added to them.`,
          '',
        ]
      : []),
    `Held-out test brands (never seen in training nor in the calibration): ${marks.registered.size} registered brands ` +
      `(${designs} designs, every one indexed), ${marks.unregistered.size} unregistered brands; ${marks.skipped} designs left out ` +
      `(SVG the service refuses). ${QUERIES} designs sampled per perturbation (registered and unregistered alike, seed ${SEED}); ` +
      "each picture goes through the service's search: normalise (a picture on a plain dark or coloured ground also in its " +
      'reversed form, ground made white, both searched), the learned embedder over the whole picture, the windows ' +
      'around its blobs and the grid (shared/imaging/regions.ts), the in-process index, the calibration. ' +
      (options.quick
        ? 'The descriptor'
        : 'The "first 10 windows" columns are the same search as it runs against S3 Vectors in AWS (the first ' +
          `${REMOTE_WINDOWS} windows only, its own calibration); the descriptor`) +
      ' columns are the degraded path (whole picture only). Each path reads the calibration of its search fit at the ' +
      'index size nearest its own (shared/imaging/logo-calibrations.ts): ' +
      reports.map((r) => `${r.name} the fit at ${r.calibratedAt?.toLocaleString('en') ?? 'no'} designs`).join(', ') +
      '.',
    '',
    ...recallTable(reports),
    '',
    'Open set (first result of every query; cross-design queries left out): ',
    '',
    ...openSetTable(reports),
    '',
    ...calibrationLines(reports[0]!),
    '',
    ...(options.distractors ? ['What answered first (open set):', '', ...distractorLines(reports), ''] : []),
    ...(ablation.length
      ? ['What each part of the learned path buys (the same test pictures):', '', ...ablation, '']
      : []),
    `Search time per picture on the learned path (normalise + windows chosen, embedded and queried, in-process, ` +
      `2 at a time): p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms; ` +
      `"${INVERTED}" alone (the picture and its reversed form both searched): p50 ${percentile(reversed, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(reversed, 95).toFixed(1)} ms.`,
  ].join('\n');
}

function commandLine(options: EvalOptions): string {
  const queries = process.env.EVAL_QUERIES ? `EVAL_QUERIES=${QUERIES} ` : '';
  const flags = [
    ...(options.distractors ? [`--distractors ${options.distractors}`] : []),
    ...(options.quick ? ['--quick'] : []),
  ];
  return `${queries}npm run eval:logos${flags.length ? ` -- ${flags.join(' ')}` : ''}`;
}

if (require.main === module) {
  const { values } = parseArgs({ options: { distractors: { type: 'string' }, quick: { type: 'boolean' } } });
  const options: EvalOptions = {
    ...(values.distractors ? { distractors: values.distractors } : {}),
    ...(values.quick ? { quick: true } : {}),
  };
  if (options.distractors || options.quick) {
    evaluateHeldOutLogos(options)
      .then((section) => console.log(section))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  } else runAndWriteSection('Logo search on held-out marks', () => evaluateHeldOutLogos());
}
