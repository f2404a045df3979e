/**
 * A Lambda layer with sharp and its libvips binaries for Linux arm64 (glibc), from layers/sharp/package.json.
 *
 * The layer is built while the app synthesises, on the machine that runs `cdk synth`/`cdk deploy`, with npm
 * (never Docker): `npm install --os=linux --cpu=arm64 --libc=glibc --omit=dev --ignore-scripts` into the asset's
 * nodejs/ folder, which is where Lambda's Node.js runtime finds layer modules (/opt/nodejs/node_modules). npm picks
 * the prebuilt @img/sharp-linux-arm64 and @img/sharp-libvips-linux-arm64 packages from the registry for the target
 * platform whatever the build machine is; install scripts are skipped because nothing needs compiling.
 *
 * The installed tree is cached under node_modules/.cache/sharp-layer/<hash of package.json>, so only the first
 * synthesis after a change of layers/sharp/package.json talks to the registry; later ones copy the cache.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export const SHARP_LAYER_DIR = path.join(__dirname, '../../layers/sharp');
const CACHE_ROOT = path.join(__dirname, '../../node_modules/.cache/sharp-layer');

export const SHARP_INSTALL_ARGS = [
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

/** Installs sharp for linux-arm64 into `<outputDir>/nodejs/node_modules` (through the cache). */
export function buildSharpLayer(outputDir: string, layerDir = SHARP_LAYER_DIR): void {
  const manifest = readFileSync(path.join(layerDir, 'package.json'));
  const cached = path.join(CACHE_ROOT, createHash('sha256').update(manifest).digest('hex').slice(0, 16));
  if (!existsSync(path.join(cached, 'nodejs', 'node_modules', 'sharp', 'package.json'))) {
    const staging = `${cached}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(path.join(staging, 'nodejs'), { recursive: true });
    writeFileSync(path.join(staging, 'nodejs', 'package.json'), manifest);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, [...SHARP_INSTALL_ARGS], {
      cwd: path.join(staging, 'nodejs'),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    rmSync(cached, { recursive: true, force: true });
    renameSync(staging, cached);
  }
  cpSync(path.join(cached, 'nodejs'), path.join(outputDir, 'nodejs'), { recursive: true });
}

export class SharpLayer extends Construct {
  readonly layer: LayerVersion;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.layer = new LayerVersion(this, 'Layer', {
      description: 'sharp (libvips) for Node.js on Linux arm64',
      compatibleArchitectures: [Architecture.ARM_64],
      compatibleRuntimes: [Runtime.NODEJS_22_X],
      code: Code.fromAsset(SHARP_LAYER_DIR, {
        // The layer's content is a function of package.json alone.
        assetHashType: AssetHashType.SOURCE,
        bundling: {
          local: {
            tryBundle(outputDir: string): boolean {
              buildSharpLayer(outputDir);
              return true;
            },
          },
          // Used only if local bundling declines, which it never does: a failed npm install stops the synthesis.
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
          command: [
            'bash',
            '-c',
            `mkdir -p /asset-output/nodejs && cp package.json /asset-output/nodejs/ && cd /asset-output/nodejs && npm ${SHARP_INSTALL_ARGS.join(' ')}`,
          ],
        },
      }),
    });
  }
}
