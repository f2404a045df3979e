/**
 * The model package as the container receives it: built by builders/build-model-package.ts from a small real
 * TorchScript model, reproducible byte for byte, unpacked, loaded by its own code/inference.py with its own copy of
 * the contract (Debian's python3 and torch), and answering every example of that contract.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildModelPackage } from '../../../builders/build-model-package';
import { IMAGE_EMBEDDING_CONTRACT } from '../../../shared/contracts/image-embedding';

const ROOT = path.join(__dirname, '../../..');
const PYTHON_ENV = { ...process.env, OMP_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1' };
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'model-package-test-'));
  execFileSync('/usr/bin/python3', [path.join(ROOT, 'model-package/tests/tiny_model.py'), path.join(work, 'tiny.pt')], {
    env: PYTHON_ENV,
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the model package', () => {
  it('is reproducible: the same weights give the same package, named by its sha256', () => {
    const spec = {
      weights: path.join(work, 'tiny.pt'),
      id: 'tiny-test-encoder',
      dimensions: 32,
      inputSize: 64,
      mean: [0.5, 0.5, 0.5],
      std: [0.25, 0.25, 0.25],
    };

    const first = buildModelPackage({ ...spec, outDir: path.join(work, 'a') });
    const second = buildModelPackage({ ...spec, outDir: path.join(work, 'b') });

    expect(second.sha256).toBe(first.sha256);
    expect(first.path).toBe(path.join(work, 'a', first.sha256, 'model.tar.gz'));
    const listing = execFileSync('tar', ['-tzf', first.path], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(listing).toEqual(['code/', 'code/contract.json', 'code/inference.py', 'manifest.json', 'model.pt']);
  });

  it('unpacked, its own inference code loads the pinned weights and answers every example of the contract it carries', () => {
    const built = buildModelPackage({
      weights: path.join(work, 'tiny.pt'),
      id: 'tiny-test-encoder',
      dimensions: 32,
      inputSize: 64,
      mean: [0.5, 0.5, 0.5],
      std: [0.25, 0.25, 0.25],
      outDir: path.join(work, 'c'),
    });
    const unpacked = path.join(work, 'unpacked');
    execFileSync('mkdir', ['-p', unpacked]);
    execFileSync('tar', ['-xzf', built.path, '-C', unpacked]);

    const lines = execFileSync(
      '/usr/bin/python3',
      [path.join(ROOT, 'model-package/tests/serve_package.py'), unpacked],
      { env: PYTHON_ENV, encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));

    const examples = [...IMAGE_EMBEDDING_CONTRACT.examples.valid, ...IMAGE_EMBEDDING_CONTRACT.examples.invalid];
    expect(lines.map((l) => l.name)).toEqual(examples.map((e) => e.name));
    for (const valid of IMAGE_EMBEDDING_CONTRACT.examples.valid) {
      const line = lines.find((l) => l.name === valid.name);
      expect(line).toMatchObject({
        status: 200,
        shape: [valid.shape, 'model'].sort(),
        model: { id: 'tiny-test-encoder', version: `sha256:${built.weightsSha256}`, dimensions: 32 },
      });
    }
    for (const invalid of IMAGE_EMBEDDING_CONTRACT.examples.invalid) {
      expect(lines.find((l) => l.name === invalid.name)).toMatchObject({
        code: invalid.code,
        status:
          IMAGE_EMBEDDING_CONTRACT.errors.codes[invalid.code as keyof typeof IMAGE_EMBEDDING_CONTRACT.errors.codes],
      });
    }
  }, 120_000);
});
