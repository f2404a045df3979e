/**
 * A Lambda layer with the native modules the image functions load, for Linux arm64 (glibc), from
 * layers/native-modules/package.json: sharp and its libvips binaries, usearch (the in-process logo index) and
 * onnxruntime-node (the learned logo embedder). The bundles leave all three out (bundling.ts, EXTERNAL_MODULES).
 *
 * The layer is built while the app synthesises, on the machine that runs `cdk synth`/`cdk deploy`, with npm
 * (never Docker): `npm install --os=linux --cpu=arm64 --libc=glibc --omit=dev --ignore-scripts` into the asset's
 * nodejs/ folder, which is where Lambda's Node.js runtime finds layer modules (/opt/nodejs/node_modules). npm picks
 * the prebuilt @img/sharp-linux-arm64 and @img/sharp-libvips-linux-arm64 packages for the target platform whatever
 * the build machine is; install scripts are skipped because nothing needs compiling (and onnxruntime-node's would
 * download a GPU build).
 *
 * onnxruntime-node and usearch ship every platform's binaries in one package (onnxruntime-node 1.30.0 alone is
 * 288 MB); only the linux-arm64 ones are kept (FOREIGN_BINARIES), which keeps the layer far from Lambda's 250 MB
 * unzipped limit (infra/DEPLOY.md has the measured size).
 *
 * The pruned tree is cached under node_modules/.cache/native-modules-layer/<hash of what decides it>, so only the
 * first synthesis after a change of the package.json (or of the pruning) talks to the registry; later ones copy
 * the cache.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { FUNCTION_RUNTIME } from './api-function';

export const NATIVE_MODULES_LAYER_DIR = path.join(__dirname, '../../layers/native-modules');
const CACHE_ROOT = path.join(__dirname, '../../node_modules/.cache/native-modules-layer');

export const LAYER_INSTALL_ARGS = [
  'install',
  '--os=linux',
  '--cpu=arm64',
  '--libc=glibc',
  '--omit=dev',
  '--ignore-scripts',
  '--no-package-lock',
  '--no-audit',
  '--no-fund',
  '--loglevel=error',
] as const;

/**
 * Folders (under node_modules) holding one entry per platform, and the entry Lambda on Linux arm64 loads: every
 * other entry is deleted. onnxruntime-node loads bin/napi-v6/<platform>/<arch>/onnxruntime_binding.node, usearch
 * prebuilds/<platform>-<arch>/usearch.node (node-gyp-build). A kept entry that is missing stops the build, so a
 * version that moved its binaries cannot ship a layer without them.
 */
export const FOREIGN_BINARIES: readonly { folder: string; keep: string }[] = [
  { folder: 'onnxruntime-node/bin/napi-v6', keep: 'linux' },
  { folder: 'onnxruntime-node/bin/napi-v6/linux', keep: 'arm64' },
  { folder: 'usearch/prebuilds', keep: 'linux-arm64' },
];

export class MissingLayerBinaryError extends Error {}

/** Deletes the other platforms' binaries from an installed node_modules folder (FOREIGN_BINARIES). */
export function pruneForeignBinaries(nodeModules: string, rules = FOREIGN_BINARIES): void {
  for (const { folder, keep } of rules) {
    const dir = path.join(nodeModules, folder);
    if (!existsSync(path.join(dir, keep))) {
      throw new MissingLayerBinaryError(
        `${folder}/${keep} is missing from the installed layer: the package no longer ships its linux-arm64 binaries there (update FOREIGN_BINARIES)`,
      );
    }
    for (const entry of readdirSync(dir)) {
      if (entry !== keep) rmSync(path.join(dir, entry), { recursive: true, force: true });
    }
  }
}

/** What decides the layer's content: the manifest, the install arguments and the pruning. */
export function layerContentHash(layerDir = NATIVE_MODULES_LAYER_DIR): string {
  return createHash('sha256')
    .update(readFileSync(path.join(layerDir, 'package.json')))
    .update(JSON.stringify([LAYER_INSTALL_ARGS, FOREIGN_BINARIES]))
    .digest('hex');
}

/** Installs the native modules for linux-arm64 into `<outputDir>/nodejs/node_modules` (through the cache). */
export function buildNativeModulesLayer(outputDir: string, layerDir = NATIVE_MODULES_LAYER_DIR): void {
  const cached = path.join(CACHE_ROOT, layerContentHash(layerDir).slice(0, 16));
  // The staging folder becomes the cache entry only once installed and pruned, so an entry is always complete.
  if (!existsSync(cached)) {
    const staging = `${cached}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(path.join(staging, 'nodejs'), { recursive: true });
    writeFileSync(path.join(staging, 'nodejs', 'package.json'), readFileSync(path.join(layerDir, 'package.json')));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, [...LAYER_INSTALL_ARGS], {
      cwd: path.join(staging, 'nodejs'),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    pruneForeignBinaries(path.join(staging, 'nodejs', 'node_modules'));
    rmSync(cached, { recursive: true, force: true });
    renameSync(staging, cached);
  }
  cpSync(path.join(cached, 'nodejs'), path.join(outputDir, 'nodejs'), { recursive: true });
}

/** The same install and pruning as a shell command, for the Docker fallback of the asset's bundling. */
function dockerCommand(): string {
  const prune = FOREIGN_BINARIES.map(
    ({ folder, keep }) =>
      `test -e ${folder}/${keep} && find ${folder} -mindepth 1 -maxdepth 1 ! -name ${keep} -exec rm -rf {} +`,
  );
  return [
    'mkdir -p /asset-output/nodejs',
    'cp package.json /asset-output/nodejs/',
    'cd /asset-output/nodejs',
    `npm ${LAYER_INSTALL_ARGS.join(' ')}`,
    'cd node_modules',
    ...prune,
  ].join(' && ');
}

export class NativeModulesLayer extends Construct {
  readonly layer: LayerVersion;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.layer = new LayerVersion(this, 'Layer', {
      description: 'sharp (libvips), usearch and onnxruntime-node for Node.js on Linux arm64',
      compatibleArchitectures: [Architecture.ARM_64],
      compatibleRuntimes: [FUNCTION_RUNTIME],
      code: Code.fromAsset(NATIVE_MODULES_LAYER_DIR, {
        // The layer's content is a function of package.json, the install arguments and the pruning alone.
        assetHashType: AssetHashType.CUSTOM,
        assetHash: layerContentHash(),
        bundling: {
          local: {
            tryBundle(outputDir: string): boolean {
              buildNativeModulesLayer(outputDir);
              return true;
            },
          },
          // Used only if local bundling declines, which it never does: a failed npm install stops the synthesis.
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x'),
          command: ['bash', '-c', dockerCommand()],
        },
      }),
    });
  }
}
