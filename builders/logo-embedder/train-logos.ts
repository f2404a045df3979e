/**
 * `npm run train:logos`: the learned logo embedder from scratch, in one command.
 *
 *  1. render-logos.ts   the simple-icons and devicon SVGs rendered to PNG, split by brand (train / validation / test)
 *  2. train.py          Debian's python3-torch (CPU): contrastive training on the train brands, export to ONNX
 *                       (data/models/logo-embedder/logo-embedder.onnx) and the training record (training.json)
 *  3. centre.ts         the mean embedding of pictures that show no logo whole (probes.py), subtracted from every
 *                       embedding (centre.json)
 *  4. calibrate.ts      the calibration (per-kind logistic regressions) and match thresholds on the validation
 *                       brands (calibration.json)
 *  5. model-card.ts     MODEL_CARD.md: data, counts, hashes, seed, time taken
 *
 * Runs under `nice`; torch uses one thread plus one worker process, so the machine stays usable. Options are passed
 * to train.py: `npm run train:logos -- --minutes 45` (default) or `-- --steps 3000` (an exact repeat of a run);
 * `-- --continue --minutes 45` trains a further stage from the last run's weights (a longer schedule in parts, each
 * stage recorded in training.json and the model card).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { writeModelCard } from './model-card';
import { CACHE, renderTrainingLogos } from './render-logos';

const ROOT = path.join(__dirname, '../..');
const MODELS = path.join(ROOT, 'data/models/logo-embedder');

async function main(): Promise<void> {
  const started = Date.now();
  const designs = await renderTrainingLogos();
  console.log(`rendered ${designs.length} designs (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  execFileSync(
    'nice',
    [
      '-n',
      '10',
      '/usr/bin/python3',
      path.join(__dirname, 'train.py'),
      CACHE,
      path.join(MODELS, 'logo-embedder.onnx'),
      path.join(MODELS, 'training.json'),
      ...process.argv.slice(2),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, OMP_NUM_THREADS: '1' },
    },
  );
  for (const step of ['centre.ts', 'calibrate.ts']) {
    execFileSync('nice', ['-n', '10', process.execPath, '--import', 'tsx', path.join(__dirname, step)], {
      stdio: 'inherit',
      cwd: ROOT,
    });
  }
  writeModelCard();
  console.log(`train:logos done in ${((Date.now() - started) / 60_000).toFixed(1)} minutes`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
