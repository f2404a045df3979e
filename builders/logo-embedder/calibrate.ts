/**
 * Step 3 of `npm run train:logos`: fits each embedder's calibration on the validation brands (held out from
 * training, disjoint from the test brands of `eval:logos`) and writes data/models/logo-embedder/calibration.json.
 *
 * Pairs: every answered mark (the first 10 by similarity) of QUERIES_PER_PERTURBATION seller pictures per
 * perturbation and of as many other designs of registered marks, registered and unregistered brands alike, searched
 * through the service's own search without a calibration, each with its evidence (shared/imaging/calibration.ts):
 * where windows are searched, the score read as the similarity is the one verified against each window's crowd
 * (shared/imaging/verify-candidates.ts). Each fit records that score and the designs its index held.
 * One calibration per search: the learned embedder over every window, the same over the first REMOTE_WINDOWS
 * windows (what a search against S3 Vectors asks), and the perceptual descriptor.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LearnedLogoEmbedder } from '../../shared/adapters/local/learned-logo-embedder';
import { FolderUsearchIndexStore } from '../../shared/adapters/local/usearch-index-store';
import { UsearchVectorIndex } from '../../shared/adapters/local/usearch-vector-index';
import { PerceptualDescriptorEmbedder } from '../../shared/imaging/perceptual-descriptor';
import { calibrationKey } from '../../shared/imaging/logo-calibrations';
import { candidateWindows, REMOTE_WINDOWS, type Window } from '../../shared/imaging/regions';
import type { Embedder, NormalizedImage } from '../../shared/ports';
import { crossDesignQueries, indexOf, loadBenchMarks, runQueries, type BenchMarks } from './logo-benchmark';
import { fitCalibration } from './open-set-metrics';

const ROOT = path.join(__dirname, '../..');
export const MODEL = process.env.LOGO_MODEL_FILE ?? path.join(ROOT, 'data/models/logo-embedder/logo-embedder.onnx');
export const CALIBRATION_FILE =
  process.env.CALIBRATION_FILE ?? path.join(ROOT, 'data/models/logo-embedder/calibration.json');
const QUERIES_PER_PERTURBATION = Number(process.env.CALIBRATION_QUERIES ?? 200);
const SEED = 5;

/** A fresh copy of the register-scale index of `embedder` in `folder` (none: an empty start). */
async function baseIndex(folder: string | undefined, embedder: Embedder): Promise<UsearchVectorIndex | undefined> {
  if (!folder) return undefined;
  const index = await new FolderUsearchIndexStore(folder).load('US', embedder);
  if (!(index instanceof UsearchVectorIndex) || index.size === 0)
    throw new Error(`no ${embedder.name} index in ${folder} (ingest the corpus there first)`);
  return index;
}

/** Each search's calibration, keyed by calibrationKey, fit with the validation brands over `distractors` (if any). */
async function fitEvery(
  marks: BenchMarks,
  learned: Embedder,
  distractors: string | undefined,
): Promise<Record<string, unknown>> {
  // The learned embedder with every window (in process), with the first REMOTE_WINDOWS (a remote index), and the
  // descriptor on the whole picture.
  const paths: [Embedder, ((image: NormalizedImage) => Window[]) | undefined, number | undefined][] = [
    [learned, (image) => candidateWindows(image), undefined],
    [learned, (image) => candidateWindows(image, REMOTE_WINDOWS), REMOTE_WINDOWS],
    [new PerceptualDescriptorEmbedder(), undefined, undefined],
  ];
  const embedders: Record<string, unknown> = {};
  const indexes = new Map<Embedder, UsearchVectorIndex>();
  for (const [embedder, windows, maxWindows] of paths) {
    const index =
      indexes.get(embedder) ?? (await indexOf(embedder, marks.registered, await baseIndex(distractors, embedder)));
    indexes.set(embedder, index);
    const path = { embedder, index, ...(windows ? { windows } : {}) };
    const queries = [
      ...(await runQueries(path, marks, { queriesPerPerturbation: QUERIES_PER_PERTURBATION, seed: SEED })),
      ...(await crossDesignQueries(path, marks, QUERIES_PER_PERTURBATION, await baseIndex(distractors, embedder))),
    ];
    const { pairs, ...calibration } = fitCalibration(queries);
    const key = calibrationKey(embedder.name, maxWindows);
    // What the calibration was fit on: the queries, the pairs, the score read as the similarity, and the designs the
    // index held (a larger index holds more look-alikes of each query; the search picks its fit by its index's size).
    const score = windows ? 'verified against the crowd of its window' : 'similarity';
    embedders[key] = { ...calibration, fitOn: { queries: queries.length, pairs, score, indexDesigns: index.size } };
    console.log(
      `${key}: ${queries.length} queries, ${pairs} pairs, ${index.size} designs indexed, likely >= ${calibration.likely}, possible >= ${calibration.possible}`,
    );
  }
  return embedders;
}

async function calibrate(distractors: string | undefined): Promise<void> {
  const started = Date.now();
  const marks = await loadBenchMarks('validation');
  const learned = await LearnedLogoEmbedder.load(MODEL);
  const embedders = await fitEvery(marks, learned, distractors);
  await learned.close();
  const seconds = Math.round((Date.now() - started) / 1000);
  if (distractors) {
    // The fits at scale join the file's fits on the validation brands alone.
    const file = JSON.parse(readFileSync(CALIBRATION_FILE, 'utf8')) as Record<string, unknown>;
    const atScale = { distractors: path.basename(distractors), seconds, embedders };
    writeFileSync(CALIBRATION_FILE, `${JSON.stringify({ ...file, atScale }, null, 1)}\n`);
    return;
  }
  const registered = [...marks.registered.values()].flat().length;
  writeFileSync(
    CALIBRATION_FILE,
    `${JSON.stringify(
      {
        about:
          'logistic regressions of "the picture shows this mark" on each answered mark\'s evidence (similarity, lead over the fifth best, whether first), for plain and for busy pictures, then an isotonic map of their output, fit on validation brands held out from training (builders/logo-embedder/calibrate.ts; shared/imaging/calibration.ts); atScale: the same fit with a register-scale index of distractors loaded',
        split: 'validation',
        registeredBrands: marks.registered.size,
        registeredDesigns: registered,
        unregisteredBrands: marks.unregistered.size,
        queriesPerPerturbation: QUERIES_PER_PERTURBATION,
        seed: SEED,
        seconds,
        embedders,
      },
      null,
      1,
    )}\n`,
  );
}

if (require.main === module) {
  const { values } = parseArgs({ options: { distractors: { type: 'string' } } });
  calibrate(values.distractors).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
