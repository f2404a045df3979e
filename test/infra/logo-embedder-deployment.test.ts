/**
 * The learned logo embedder runs in the deployed functions as it does locally: onnxruntime-node for Linux arm64 in
 * the native-modules layer (and nothing of the other platforms), the model file beside the image functions'
 * bundles with LOGO_MODEL_PATH naming it, S3 Vectors indexes as wide as its vectors. CLIP on SageMaker only when
 * the command line asks for it, and then the indexes are CLIP's and no learned model ships.
 *
 * dev is synthesised with real bundles and the real layer (npm installs it for linux-arm64 on the first run, then
 * the cache under node_modules/.cache serves). The model is referred to by its path only: it is retrained and
 * replaced, so nothing here knows its hash or size.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { environmentConfig, LogoEmbedderChoiceError } from '../../infra/config/environments';
import { PROJECT_ROOT } from '../../infra/constructs/bundling';
import {
  MissingLayerBinaryError,
  NATIVE_MODULES_LAYER_DIR,
  pruneForeignBinaries,
} from '../../infra/constructs/native-modules-layer';
import { CLIP_DIMENSIONS } from '../../shared/adapters/aws/sagemaker-embedder';
import { LearnedLogoEmbedder, LOGO_NET_MODEL } from '../../shared/adapters/local/learned-logo-embedder';
import { loadConfig } from '../../shared/config';
import {
  assetDirOf,
  CLIP_CREATED,
  functionLogicalId,
  grantsOf,
  onlyResource,
  synthEnvironment,
  type SynthesisedEnvironment,
} from './synth-environment';

/** Lambda's limit on a function and its layers, unzipped: 250 MB. */
const LAMBDA_UNZIPPED_LIMIT_BYTES = 250 * 1024 * 1024;
const IMAGE_FUNCTIONS = ['ImageSearch', 'Ingest'] as const;
const ROOT_DEPENDENCIES = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  }
).dependencies;

let learned: SynthesisedEnvironment;
let clip: SynthesisedEnvironment;

beforeAll(() => {
  learned = synthEnvironment('dev', { bundle: true });
  clip = synthEnvironment('dev', { bundle: true, overrides: CLIP_CREATED });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function bytesUnder(dir: string): number {
  return filesUnder(dir).reduce((sum, file) => sum + statSync(file).size, 0);
}

/** The word size and machine an ELF file is built for, from its header (`64-bit aarch64`), or `not ELF`. */
function elfTarget(file: string): string {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return 'not ELF';
  const machine = header[5] === 1 ? header.readUInt16LE(18) : header.readUInt16BE(18);
  const names: Record<number, string> = { 183: 'aarch64', 62: 'x86-64', 3: 'x86', 40: 'arm' };
  return `${header[4] === 2 ? 64 : 32}-bit ${names[machine] ?? `machine ${machine}`}`;
}

function variablesOf(env: SynthesisedEnvironment, construct: string): Record<string, unknown> {
  return env.statelessJson.Resources[functionLogicalId(env.statelessJson, construct)]!.Properties!.Environment
    .Variables as Record<string, unknown>;
}

/** A function's environment as the Lambda would see it: references to other resources given plausible values. */
function resolvedVariables(env: SynthesisedEnvironment, construct: string): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(variablesOf(env, construct))) {
    if (typeof value === 'string') resolved[name] = value;
    else if (name.endsWith('_ARN'))
      resolved[name] = `arn:aws:s3vectors:us-east-1:123456789012:bucket/logos/index/${name.toLowerCase()}`;
    else resolved[name] = `tmk-dev-${name.toLowerCase().replace(/_/g, '-')}`;
  }
  return resolved;
}

describe('the native-modules layer', () => {
  let layerDir: string;
  let nodeModules: string;
  beforeAll(() => {
    layerDir = assetDirOf(learned, { layer: 'NativeModulesLayer' });
    nodeModules = path.join(layerDir, 'nodejs', 'node_modules');
  });

  it.each(['onnxruntime-node', 'sharp', 'usearch'])(
    'holds %s at exactly the version of the root package.json (what the tests ran)',
    (name) => {
      const installed = JSON.parse(readFileSync(path.join(nodeModules, name, 'package.json'), 'utf8')) as {
        version: string;
      };
      const pinned = (
        JSON.parse(readFileSync(path.join(NATIVE_MODULES_LAYER_DIR, 'package.json'), 'utf8')) as {
          dependencies: Record<string, string>;
        }
      ).dependencies[name];
      expect([installed.version, pinned]).toEqual([ROOT_DEPENDENCIES[name], ROOT_DEPENDENCIES[name]]);
    },
  );

  it('carries onnxruntime for linux arm64 and no other platform', () => {
    const bin = path.join(nodeModules, 'onnxruntime-node', 'bin', 'napi-v6');
    expect(readdirSync(bin)).toEqual(['linux']);
    expect(readdirSync(path.join(bin, 'linux'))).toEqual(['arm64']);
    const arm64 = path.join(bin, 'linux', 'arm64');
    expect(readdirSync(arm64).sort()).toEqual(['libonnxruntime.so.1', 'onnxruntime_binding.node']);
    for (const file of readdirSync(arm64)) expect(elfTarget(path.join(arm64, file))).toBe('64-bit aarch64');
  });

  it('every native binary in it is a 64-bit aarch64 ELF, sharp and usearch included', () => {
    const binaries = filesUnder(nodeModules).filter((file) => /\.node$|\.so(\.\d+)*$/.test(file));
    const relative = binaries.map((file) => path.relative(nodeModules, file));
    expect(relative).toEqual(
      expect.arrayContaining([
        'onnxruntime-node/bin/napi-v6/linux/arm64/onnxruntime_binding.node',
        'usearch/prebuilds/linux-arm64/usearch.node',
        '@img/sharp-linux-arm64/lib/sharp-linux-arm64.node',
      ]),
    );
    expect(binaries.filter((file) => elfTarget(file) !== '64-bit aarch64')).toEqual([]);
    expect(readdirSync(path.join(nodeModules, 'usearch', 'prebuilds'))).toEqual(['linux-arm64']);
  });

  it.each(IMAGE_FUNCTIONS)('%s and the layer stay well under Lambda’s 250 MB unzipped', (construct) => {
    const total = bytesUnder(layerDir) + bytesUnder(assetDirOf(learned, { function: construct }));
    // onnxruntime-node with every platform's binaries is 288 MB on its own: the pruning is what keeps this true.
    expect(total).toBeLessThan(LAMBDA_UNZIPPED_LIMIT_BYTES / 2);
  });
});

describe('pruning the other platforms', () => {
  function fakeInstall(entries: string[]): string {
    const root = mkdtempSync(path.join(tmpdir(), 'layer-prune-'));
    for (const entry of entries) mkdirSync(path.join(root, entry), { recursive: true });
    return root;
  }

  it('keeps only the linux-arm64 entry of each folder that holds every platform', () => {
    const root = fakeInstall([
      'onnxruntime-node/bin/napi-v6/linux/arm64',
      'onnxruntime-node/bin/napi-v6/linux/x64',
      'onnxruntime-node/bin/napi-v6/darwin/arm64',
      'onnxruntime-node/bin/napi-v6/win32/x64',
      'usearch/prebuilds/linux-arm64',
      'usearch/prebuilds/linux-x64',
      'usearch/prebuilds/darwin-arm64+x64',
    ]);
    pruneForeignBinaries(root);
    expect(filesAndFolders(root)).toEqual([
      'onnxruntime-node',
      'onnxruntime-node/bin',
      'onnxruntime-node/bin/napi-v6',
      'onnxruntime-node/bin/napi-v6/linux',
      'onnxruntime-node/bin/napi-v6/linux/arm64',
      'usearch',
      'usearch/prebuilds',
      'usearch/prebuilds/linux-arm64',
    ]);
  });

  it('refuses to build a layer whose package no longer has its linux-arm64 binaries where expected', () => {
    const root = fakeInstall(['onnxruntime-node/bin/napi-v6/linux/x64', 'usearch/prebuilds/linux-arm64']);
    expect(() => pruneForeignBinaries(root)).toThrow(MissingLayerBinaryError);
    expect(() => pruneForeignBinaries(root)).toThrow(/onnxruntime-node\/bin\/napi-v6\/linux\/arm64 is missing/);
  });

  function filesAndFolders(root: string): string[] {
    return readdirSync(root, { recursive: true, encoding: 'utf8' })
      .map((entry) => entry.split(path.sep).join('/'))
      .sort();
  }
});

describe('the learned embedder in the image functions (the default)', () => {
  it.each(IMAGE_FUNCTIONS)(
    '%s ships the committed model file beside its bundle, where LOGO_MODEL_PATH points',
    (construct) => {
      const variables = variablesOf(learned, construct);
      expect(variables.LOGO_EMBEDDER).toBe('learned');
      const modelPath = variables.LOGO_MODEL_PATH as string;
      // The bundle's folder is /var/task in the Lambda.
      expect(path.posix.dirname(modelPath)).toBe('/var/task');
      const shipped = path.join(assetDirOf(learned, { function: construct }), path.posix.basename(modelPath));
      expect(readFileSync(shipped).equals(readFileSync(path.join(PROJECT_ROOT, LOGO_NET_MODEL)))).toBe(true);
    },
  );

  it.each(IMAGE_FUNCTIONS)('%s leaves onnxruntime-node to the layer (required, not bundled)', (construct) => {
    const bundle = readFileSync(path.join(assetDirOf(learned, { function: construct }), 'index.js'), 'utf8');
    expect(bundle).toContain('require("onnxruntime-node")');
    expect(bundle).not.toContain('onnxruntime_binding.node');
  });

  it.each(IMAGE_FUNCTIONS)('%s reads its environment as the learned embedder over S3 Vectors, no CLIP', (construct) => {
    const logos = loadConfig(resolvedVariables(learned, construct)).logos;
    expect(logos.modelPath).toBe('/var/task/logo-embedder.onnx');
    expect(logos.vectorIndexArns).toEqual({
      US: expect.stringMatching(/^arn:aws:s3vectors:/),
      CN: expect.stringMatching(/^arn:aws:s3vectors:/),
    });
    expect(logos.clip).toBeUndefined();
    expect(logos.bucket).toBeDefined();
  });

  it('the shipped model embeds into vectors exactly as wide as the indexes it writes to', async () => {
    const shipped = path.join(assetDirOf(learned, { function: 'Ingest' }), 'logo-embedder.onnx');
    const embedder = await LearnedLogoEmbedder.load(shipped);
    try {
      const side = 224;
      const vector = await embedder.embed({
        width: side,
        height: side,
        rgb: new Uint8Array(side * side * 3).fill(200),
      });
      for (const market of ['US', 'CN']) {
        const [, index] = onlyResource(learned.statefulJson, 'AWS::S3Vectors::Index', `LogoVectorsIndex${market}`);
        expect([index.Properties!.Dimension, index.Properties!.IndexName]).toEqual([
          vector.length,
          `${embedder.name}-${market.toLowerCase()}`,
        ]);
      }
    } finally {
      await embedder.close();
    }
  });

  it('no function may invoke SageMaker', () => {
    for (const construct of IMAGE_FUNCTIONS)
      expect(
        Object.values(grantsOf(learned, construct))
          .flat()
          .filter((a) => a.startsWith('sagemaker:')),
      ).toEqual([]);
  });
});

describe('CLIP on SageMaker, only when asked for (-c logoEmbedder=clip -c modelPackageUri=...)', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation pseudo-parameters as describeValue prints them, not a template
  const clipArn = 'arn:${AWS::Partition}:sagemaker:${AWS::Region}:${AWS::AccountId}:endpoint/tmk-dev-clip';

  it('the indexes are CLIP’s: 512 dimensions (the SageMaker client’s), named after it', () => {
    for (const market of ['US', 'CN']) {
      const [, index] = onlyResource(clip.statefulJson, 'AWS::S3Vectors::Index', `LogoVectorsIndex${market}`);
      expect([index.Properties!.Dimension, index.Properties!.IndexName]).toEqual([
        CLIP_DIMENSIONS,
        `clip-${market.toLowerCase()}`,
      ]);
    }
  });

  it.each(IMAGE_FUNCTIONS)('%s gets the endpoint, may invoke exactly it, and ships no learned model', (construct) => {
    const variables = variablesOf(clip, construct);
    expect([variables.CLIP_ENDPOINT_NAME, variables.LOGO_EMBEDDER, variables.LOGO_MODEL_PATH]).toEqual([
      'tmk-dev-clip',
      'none',
      undefined,
    ]);
    expect(grantsOf(clip, construct)[clipArn]).toEqual(['sagemaker:InvokeEndpoint']);
    expect(readdirSync(assetDirOf(clip, { function: construct })).filter((f) => f.endsWith('.onnx'))).toEqual([]);
    const logos = loadConfig(resolvedVariables(clip, construct)).logos;
    expect([logos.clip?.endpointName, logos.modelPath, logos.vectorIndexArns]).toEqual([
      'tmk-dev-clip',
      undefined,
      undefined,
    ]);
  });

  it('dev creates a serverless endpoint for it (no instance billed while idle), and names it in an output', () => {
    clip.stateless.resourceCountIs('AWS::SageMaker::Endpoint', 1);
    const [, config] = onlyResource(clip.statelessJson, 'AWS::SageMaker::EndpointConfig', 'ClipConfig');
    expect(config.Properties!.ProductionVariants[0].InstanceType).toBeUndefined();
    expect(config.Properties!.ProductionVariants[0].ServerlessConfig).toEqual({
      MemorySizeInMB: 4096,
      MaxConcurrency: 2,
    });
    expect(clip.statelessJson.Outputs?.ClipEndpointName).toEqual({ Value: 'tmk-dev-clip' });
  });

  it('an existing endpoint can be named instead: nothing is created, the grant is on that endpoint', () => {
    const imported = synthEnvironment('dev', { bundle: false, overrides: { clipEndpointName: 'shared-clip' } });
    imported.stateless.resourceCountIs('AWS::SageMaker::Endpoint', 0);
    expect(variablesOf(imported, 'ImageSearch').CLIP_ENDPOINT_NAME).toBe('shared-clip');
    expect(Object.keys(grantsOf(imported, 'ImageSearch')).filter((r) => r.includes('sagemaker'))).toEqual([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation pseudo-parameters as describeValue prints them, not a template
      'arn:${AWS::Partition}:sagemaker:${AWS::Region}:${AWS::AccountId}:endpoint/shared-clip',
    ]);
  });

  it('an unknown or contradictory choice stops the synthesis with what to pass', () => {
    expect(() => environmentConfig('dev', { logoEmbedder: 'clipp' })).toThrow(LogoEmbedderChoiceError);
    expect(() => environmentConfig('dev', { logoEmbedder: 'clipp' })).toThrow(/Choose one of: learned, clip/);
    expect(() => environmentConfig('dev', { logoEmbedder: 'learned', clipEndpointName: 'shared-clip' })).toThrow(
      /-c logoEmbedder=clip/,
    );
    expect(() => environmentConfig('staging', { modelPackageUri: CLIP_CREATED.modelPackageUri })).toThrow(
      LogoEmbedderChoiceError,
    );
  });
});
