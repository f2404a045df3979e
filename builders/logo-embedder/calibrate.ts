/**
 * Step 3 of `npm run train:logos`: fits each embedder's calibration on the validation brands (held out from
 * training, disjoint from the test brands of `eval:logos`) and writes data/models/logo-embedder/calibration.json.
 *
 * Pairs: every answered mark (the first 10 by similarity) of QUERIES_PER_PERTURBATION seller pictures per
 * perturbation and of as many other designs of registered marks, registered and unregistered brands alike, searched
 * through the service's own search without a calibration, each with its evidence (shared/imaging/calibration.ts).
 * One calibration per search: the learned embedder over every window, the same over the first REMOTE_WINDOWS
 * windows (what a search against S3 Vectors asks), and the perceptual descriptor.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { LearnedLogoEmbedder } from '../../shared/adapters/local/learned-logo-embedder';
import { PerceptualDescriptorEmbedder } from '../../shared/imaging/perceptual-descriptor';
import { calibrationKey } from '../../shared/imaging/logo-calibrations';
import { candidateWindows, REMOTE_WINDOWS, type Window } from '../../shared/imaging/regions';
import type { Embedder, NormalizedImage } from '../../shared/ports';
import { crossDesignQueries, indexOf, loadBenchMarks, runQueries } from './logo-benchmark';
import { fitCalibration } from './open-set-metrics';

const ROOT = path.join(__dirname, '../..');
export const MODEL = process.env.LOGO_MODEL_FILE ?? path.join(ROOT, 'data/models/logo-embedder/logo-embedder.onnx');
export const CALIBRATION_FILE =
  process.env.CALIBRATION_FILE ?? path.join(ROOT, 'data/models/logo-embedder/calibration.json');
const QUERIES_PER_PERTURBATION = Number(process.env.CALIBRATION_QUERIES ?? 200);
const SEED = 5;

async function calibrate(): Promise<void> {
  const started = Date.now();
  const marks = await loadBenchMarks('validation');
  const learned = await LearnedLogoEmbedder.load(MODEL);
  // The learned embedder with every window (in process), with the first REMOTE_WINDOWS (a remote index), and the
  // descriptor on the whole picture.
  const paths: [Embedder, ((image: NormalizedImage) => Window[]) | undefined, number | undefined][] = [
    [learned, (image) => candidateWindows(image), undefined],
    [learned, (image) => candidateWindows(image, REMOTE_WINDOWS), REMOTE_WINDOWS],
    [new PerceptualDescriptorEmbedder(), undefined, undefined],
  ];
  const embedders: Record<string, unknown> = {};
  const indexes = new Map<Embedder, Awaited<ReturnType<typeof indexOf>>>();
  for (const [embedder, windows, maxWindows] of paths) {
    const index = indexes.get(embedder) ?? (await indexOf(embedder, marks.registered));
    indexes.set(embedder, index);
    const path = { embedder, index, ...(windows ? { windows } : {}) };
    const queries = [
      ...(await runQueries(path, marks, { queriesPerPerturbation: QUERIES_PER_PERTURBATION, seed: SEED })),
      ...(await crossDesignQueries(path, marks, QUERIES_PER_PERTURBATION)),
    ];
    const { pairs, ...calibration } = fitCalibration(queries);
    const key = calibrationKey(embedder.name, maxWindows);
    embedders[key] = { ...calibration, fitOn: { queries: queries.length, pairs } };
    console.log(
      `${key}: ${queries.length} queries, ${pairs} pairs, likely >= ${calibration.likely}, possible >= ${calibration.possible}`,
    );
  }
  const registered = [...marks.registered.values()].flat().length;
  writeFileSync(
    CALIBRATION_FILE,
    `${JSON.stringify(
      {
        about:
          'logistic regressions of "the picture shows this mark" on each answered mark\'s evidence (similarity, lead over the fifth best, whether first), for plain and for busy pictures, then an isotonic map of their output, fit on validation brands held out from training (builders/logo-embedder/calibrate.ts; shared/imaging/calibration.ts)',
        split: 'validation',
        registeredBrands: marks.registered.size,
        registeredDesigns: registered,
        unregisteredBrands: marks.unregistered.size,
        queriesPerPerturbation: QUERIES_PER_PERTURBATION,
        seed: SEED,
        seconds: Math.round((Date.now() - started) / 1000),
        embedders,
      },
      null,
      1,
    )}\n`,
  );
  await learned.close();
}

if (require.main === module) {
  calibrate().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
