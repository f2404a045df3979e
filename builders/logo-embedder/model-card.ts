/**
 * Step 4 of `npm run train:logos`: data/models/logo-embedder/MODEL_CARD.md from the training record
 * (training.json), the calibration (calibration.json) and the rendered manifest's counts.
 */
import { REMOTE_WINDOWS } from '../../shared/imaging/regions';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CACHE, type LogoDesign } from './render-logos';

const MODELS = path.join(__dirname, '../../data/models/logo-embedder');

interface TrainingStage {
  steps: number;
  batch_designs: number;
  batch_distractors?: number;
  optimiser: string;
  budget_minutes: number | null;
  seed: number;
  threads: string;
  seconds: number;
  cpu_count: number;
  torch: string;
  first_batch?: number;
}

interface TrainingRecord {
  architecture: string;
  parameters: number;
  objective: string;
  input: { shape: unknown[]; normalisation: string };
  output: { dimensions: number };
  training: TrainingStage;
  /** The stages this one continued from, first first (train.py --continue). */
  earlier_stages?: TrainingStage[];
  data: { train_designs: number; train_brands: number; text_strips: number; sources: string; train_png_sha256: string };
  sha256: string;
}

export function writeModelCard(): string {
  const training = JSON.parse(readFileSync(path.join(MODELS, 'training.json'), 'utf8')) as TrainingRecord;
  const calibration = JSON.parse(readFileSync(path.join(MODELS, 'calibration.json'), 'utf8')) as Record<
    string,
    unknown
  > & {
    embedders: Record<
      string,
      { likely: number; possible: number; fitOn: { queries: number; pairs: number; indexDesigns?: number } }
    >;
  };
  const designs = (JSON.parse(readFileSync(path.join(CACHE, 'manifest.json'), 'utf8')) as { designs: LogoDesign[] })
    .designs;
  const model = readFileSync(path.join(MODELS, 'logo-embedder.onnx'));
  const centre = JSON.parse(readFileSync(path.join(MODELS, 'centre.json'), 'utf8')) as { probes: number };
  const count = (split: string) => designs.filter((d) => d.split === split);
  const brands = (split: string) => new Set(count(split).map((d) => d.brand)).size;
  const t = training.training;
  const stages = [...(training.earlier_stages ?? []), t];
  const stageText = (s: TrainingStage) =>
    `${s.steps} steps of ${s.batch_designs} designs${s.batch_distractors ? ` and ${s.batch_distractors} distractors` : ''}, ${s.optimiser}${s.budget_minutes ? `, a ${s.budget_minutes}-minute budget` : ''}`;
  const trainingText =
    stages.length === 1
      ? stageText(t)
      : stages
          .map(
            (s, i) =>
              `stage ${i + 1}${i > 0 ? ` (from stage ${i}'s weights, pictures from batch ${s.first_batch})` : ''}: ${stageText(s)}`,
          )
          .join('; ');
  const seconds = stages.reduce((sum, s) => sum + s.seconds, 0);
  const repeat = stages
    .map((s, i) => `\`npm run train:logos -- ${i > 0 ? '--continue ' : ''}--steps ${s.steps}\``)
    .join(', then ');
  const learned = calibration.embedders['logo-net']!;
  const card = `# Logo embedder (logo-net)

A compact image-embedding network trained in this project to tell which registered logo a seller's picture shows.
Built by \`npm run train:logos\` (builders/logo-embedder/); the figures on held-out marks are in BENCHMARKS.md
("Logo search on held-out marks", \`npm run eval:logos\`).

| | |
|---|---|
| file | \`logo-embedder.onnx\`, ${(model.length / 2 ** 20).toFixed(1)} MB, SHA-256 \`${createHash('sha256').update(model).digest('hex')}\` |
| architecture | ${training.architecture}; ${training.parameters.toLocaleString('en-US')} parameters |
| input | \`image\` [batch, 3, 64, 64] float32 NCHW, ${training.input.normalisation}: the service's normalised picture (or a window of it) area-averaged to 64 x 64 |
| output | \`embedding\` [batch, ${training.output.dimensions}], L2-normalised |
| objective | ${training.objective}; the seller pictures: rotation up to 35 degrees, mirroring, recolouring, inversion, the logo at 25-95% on white, a solid colour, a noisy gradient, a busy picture of shapes and other logos, or a product shape (shirt, box, round), a line of text beside it, crops, JPEG quality 15-85, and windows cut around the logo off centre as region search cuts them |
| training | ${trainingText}; seed ${t.seed}; ${t.threads}; torch ${t.torch} (Debian python3-torch, CPU) |
| time taken | ${(seconds / 60).toFixed(1)} minutes on this machine (${t.cpu_count} cores shared with other work, under \`nice\`) |
| data | ${training.data.sources}; train split: ${count('train').length} designs of ${brands('train')} brands (SHA-256 of the rendered PNGs \`${training.data.train_png_sha256}\`), ${training.data.text_strips} text strips set in the system fonts |
| held out by brand | validation: ${count('validation').length} designs of ${brands('validation')} brands (calibration and thresholds); test: ${count('test').length} designs of ${brands('test')} brands (the reported figures), including every brand of the shipped sample logos. Training never reads either. |
| centring | every output minus the mean embedding of ${centre.probes} pictures that show no logo whole (training's distractor generator, its own seed), normalised again (\`centre.json\`, bound to this file's SHA-256) |
| calibration | logistic regressions of "the picture shows this mark" on the mark's evidence in its answer (its similarity verified against the crowd of its window, shared/imaging/verify-candidates.ts; its lead over the fifth best; whether first), one for plain and one for busy pictures, then an isotonic map of their output, fit on ${learned.fitOn.pairs} result pairs of ${learned.fitOn.queries} validation queries${learned.fitOn.indexDesigns ? ` over an index of ${learned.fitOn.indexDesigns} designs` : ''}; "likely" at probability >= ${learned.likely}, "possible" at >= ${learned.possible}; the same fit again for the search that asks only the first ${REMOTE_WINDOWS} windows (S3 Vectors); each fit again with the validation brands added to a register-scale index of distractors (\`atScale\`, \`calibrate.ts --distractors\`), a search reading the fit nearest its index's size |

Repeat this run: ${repeat} (the same data, seed, pictures and number of steps${stages.length > 1 ? ' in each stage' : ''}; the
default is a wall-clock budget, whose step count depends on the machine's load). Each command took its training time
plus about 2 minutes of rendering and 6 of calibration here.

Licences: simple-icons icons are CC0-1.0 (icons with a licence of their own are left out), devicon is MIT; the logos
are the marks of their owners, used here only to learn to recognise logos.
`;
  writeFileSync(path.join(MODELS, 'MODEL_CARD.md'), card);
  return card;
}

if (require.main === module) console.log(writeModelCard());
