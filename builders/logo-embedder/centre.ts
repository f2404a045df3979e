/**
 * Step 3 of `npm run train:logos`: the centre of the learned embedder, written to
 * data/models/logo-embedder/centre.json.
 *
 * A few registered designs sit close to everything that is not a logo (clutter, a line of text, the sliver of a logo
 * at a window's edge): left alone, they are the nearest mark to most busy pictures (one design was the first result
 * of 37 of 100 validation pictures of other logos at 30% size on clutter). Subtracting the mean embedding of such
 * pictures from every embedding, queries and registered designs alike, and normalising again (global centring)
 * moves those designs away from the crowd. On the validation brands it raised recall@10 at 30% size on a busy
 * picture from 0.66 to 0.74 and recall@1 with text beside from 0.52 to 0.60 (BENCHMARKS.md, "Logo search on
 * held-out marks").
 *
 * The pictures: PROBES distractors from probes.py (training's own distractor generator, its own seed, train-split
 * logos only). The file records the model's SHA-256: the embedder applies the centre only to that model.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOGO_NET_INPUT } from '../../shared/adapters/local/learned-logo-embedder';
import { OnnxEmbedder } from '../../shared/adapters/local/onnx-embedder';
import { LOGO_NET } from '../../shared/adapters/local/learned-logo-embedder';
import { CACHE } from './render-logos';

const ROOT = path.join(__dirname, '../..');
const MODEL = process.env.LOGO_MODEL_FILE ?? path.join(ROOT, 'data/models/logo-embedder/logo-embedder.onnx');
export const CENTRE_FILE = process.env.CENTRE_FILE ?? path.join(ROOT, 'data/models/logo-embedder/centre.json');
const PROBES = 2048;

async function centre(): Promise<void> {
  const probesFile = path.join(CACHE, 'probes.u8');
  execFileSync(
    'nice',
    ['-n', '10', '/usr/bin/python3', path.join(__dirname, 'probes.py'), CACHE, String(PROBES), probesFile],
    {
      stdio: 'inherit',
    },
  );
  const bytes = readFileSync(probesFile);
  const side = LOGO_NET_INPUT;
  const per = side * side * 3;
  if (bytes.length !== PROBES * per) throw new Error(`expected ${PROBES * per} bytes of probe pictures`);
  // The model's own output, before any centre.
  const model = await OnnxEmbedder.load({ ...LOGO_NET, modelPath: MODEL, intraOpNumThreads: 1 });
  const sum = new Float64Array(LOGO_NET.dimensions!);
  for (let start = 0; start < PROBES; start += 64) {
    const batch = [];
    for (let i = start; i < Math.min(PROBES, start + 64); i++)
      batch.push({ width: side, height: side, rgb: new Uint8Array(bytes.buffer, bytes.byteOffset + i * per, per) });
    for (const vector of await model.embedMany(batch)) for (const [j, v] of vector.entries()) sum[j] = sum[j]! + v;
  }
  await model.close();
  const vector = [...sum].map((v) => Math.round((v / PROBES) * 1e6) / 1e6);
  writeFileSync(
    CENTRE_FILE,
    `${JSON.stringify(
      {
        about:
          'the mean embedding of pictures that show no logo whole; subtracted from every embedding of this model (builders/logo-embedder/centre.ts)',
        model_sha256: createHash('sha256').update(readFileSync(MODEL)).digest('hex'),
        probes: PROBES,
        generator: 'builders/logo-embedder/probes.py (augment.distractor_view, seed 424242, train-split logos)',
        vector,
      },
      null,
      1,
    )}\n`,
  );
  console.log(`centre of ${PROBES} probe pictures written (norm ${Math.hypot(...vector).toFixed(3)})`);
}

if (require.main === module) {
  centre().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
