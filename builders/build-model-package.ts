/**
 * Builds the SageMaker model package of the image-embedding endpoint, pinned by content:
 *
 *   npm run model:package -- --weights <model.pt | model.onnx> --id <name> --dimensions <d> \
 *     [--input-size 224] [--mean 0.48145466,0.4578275,0.40821073] [--std 0.26862954,0.26130258,0.27577711] [--out .local/model-packages]
 *
 * The package (model.tar.gz, the layout the SageMaker PyTorch container expects):
 *   manifest.json       id, weights file, its sha256, dimensions, input size / mean / std
 *   model.pt|.onnx      the weights (TorchScript, or ONNX served with onnxruntime)
 *   code/inference.py   the inference code (model-package/code/inference.py)
 *   code/contract.json  the contract it serves (shared/contracts/image-embedding.v1.json)
 *   code/requirements.txt  onnxruntime, for an ONNX model only
 * It is written to <out>/<sha256 of the package>/model.tar.gz (the tar is byte-for-byte reproducible: sorted names,
 * zero times and owners), and the command prints how to upload it and the `-c modelPackageUri=...` to deploy it with.
 * The inference code refuses weights whose sha256 is not the manifest's, so the URI pins the weights as well.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.join(__dirname, '..');
const CLIP_MEAN = '0.48145466,0.4578275,0.40821073';
const CLIP_STD = '0.26862954,0.26130258,0.27577711';

export interface ModelPackageSpec {
  weights: string;
  id: string;
  dimensions: number;
  inputSize: number;
  mean: number[];
  std: number[];
  outDir: string;
}

/** Weights run to hundreds of megabytes: read in chunks. */
function sha256OfFile(file: string): string {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

export function buildModelPackage(spec: ModelPackageSpec): { path: string; sha256: string; weightsSha256: string } {
  const extension = path.extname(spec.weights);
  if (extension !== '.pt' && extension !== '.onnx')
    throw new Error(`--weights must be a TorchScript .pt or an ONNX .onnx file, got ${spec.weights}`);
  if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(spec.id))
    throw new Error(`--id must be lower-case letters, digits, . _ -; got ${spec.id}`);
  const staging = mkdtempSync(path.join(os.tmpdir(), 'model-package-'));
  try {
    const weightsName = `model${extension}`;
    const weightsSha256 = sha256OfFile(spec.weights);
    copyFileSync(spec.weights, path.join(staging, weightsName));
    const manifest = {
      id: spec.id,
      weights: weightsName,
      sha256: weightsSha256,
      dimensions: spec.dimensions,
      input: { size: spec.inputSize, mean: spec.mean, std: spec.std },
    };
    writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(path.join(staging, 'code'));
    copyFileSync(path.join(ROOT, 'model-package/code/inference.py'), path.join(staging, 'code/inference.py'));
    copyFileSync(path.join(ROOT, 'shared/contracts/image-embedding.v1.json'), path.join(staging, 'code/contract.json'));
    if (extension === '.onnx') writeFileSync(path.join(staging, 'code/requirements.txt'), 'onnxruntime==1.17.3\n');

    mkdirSync(spec.outDir, { recursive: true });
    const tarPath = path.join(spec.outDir, `package-${process.pid}.tar`);
    const entries = ['manifest.json', weightsName, 'code'];
    execFileSync('tar', [
      '--sort=name',
      '--mtime=@0',
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '-cf',
      tarPath,
      '-C',
      staging,
      ...entries,
    ]);
    // gzip -n keeps no name or time, so the same inputs give the same bytes.
    execFileSync('gzip', ['-n', '-9', '-f', tarPath]);
    const packageSha256 = sha256OfFile(`${tarPath}.gz`);
    const finalDir = path.join(spec.outDir, packageSha256);
    mkdirSync(finalDir, { recursive: true });
    renameSync(`${tarPath}.gz`, path.join(finalDir, 'model.tar.gz'));
    return { path: path.join(finalDir, 'model.tar.gz'), sha256: packageSha256, weightsSha256 };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      weights: { type: 'string' },
      id: { type: 'string' },
      dimensions: { type: 'string' },
      'input-size': { type: 'string', default: '224' },
      mean: { type: 'string', default: CLIP_MEAN },
      std: { type: 'string', default: CLIP_STD },
      out: { type: 'string', default: '.local/model-packages' },
    },
  });
  if (!values.weights || !values.id || !values.dimensions) {
    console.error(
      'usage: npm run model:package -- --weights <model.pt|model.onnx> --id <name> --dimensions <d> [--input-size 224] [--mean a,b,c] [--std a,b,c] [--out dir]',
    );
    process.exit(2);
  }
  const built = buildModelPackage({
    weights: values.weights,
    id: values.id,
    dimensions: Number(values.dimensions),
    inputSize: Number(values['input-size']),
    mean: values.mean!.split(',').map(Number),
    std: values.std!.split(',').map(Number),
    outDir: values.out!,
  });
  const key = `image-embedding/${values.id}/${built.sha256}/model.tar.gz`;
  console.log(`package ${built.path}\n  sha256 ${built.sha256}\n  weights sha256 ${built.weightsSha256}`);
  console.log(`upload:  aws s3 cp ${built.path} s3://<your-model-bucket>/${key}`);
  console.log(`deploy:  npm run deploy -- -c env=<env> -c modelPackageUri=s3://<your-model-bucket>/${key}`);
}

if (require.main === module) main();
