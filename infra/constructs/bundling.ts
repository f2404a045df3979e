/**
 * How every handler is bundled, in one place: the stacks hand these options to NodejsFunction, and the bundle-size
 * benchmark hands the same ones to esbuild's API, so the benchmark measures what is deployed.
 */
import path from 'node:path';
import { LogLevel, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/**
 * The AWS SDK v3 ships with the Node.js 24 Lambda runtime; sharp, usearch and onnxruntime-node (the learned logo
 * embedder, loaded only on first use) come from the native-modules layer (native-modules-layer.ts).
 */
export const EXTERNAL_MODULES: readonly string[] = ['@aws-sdk/*', 'sharp', 'usearch', 'onnxruntime-node'];

export const HANDLER_BUNDLE = {
  target: 'node24',
  format: 'cjs',
  minify: true,
  sourceMap: true,
  /** Prefer ES module entry points so that esbuild can drop unused exports. */
  mainFields: ['module', 'main'],
  externalModules: EXTERNAL_MODULES,
} as const;

/** A file shipped beside a handler's bundle (absolute source path, name in the bundle's folder). */
export interface BundledFile {
  from: string;
  to: string;
}

/** Options for NodejsFunction. Bundling runs with the project's own esbuild (never Docker). */
export function nodejsBundling(files: readonly BundledFile[] = []): BundlingOptions {
  return {
    ...(files.length
      ? {
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (_inputDir: string, outputDir: string) =>
              files.map((f) => `cp "${f.from}" "${path.join(outputDir, f.to)}"`),
          },
        }
      : {}),
    target: HANDLER_BUNDLE.target,
    format: OutputFormat.CJS,
    minify: HANDLER_BUNDLE.minify,
    sourceMap: HANDLER_BUNDLE.sourceMap,
    mainFields: [...HANDLER_BUNDLE.mainFields],
    externalModules: [...HANDLER_BUNDLE.externalModules],
    forceDockerBundling: false,
    logLevel: LogLevel.WARNING,
  };
}

/** The esbuild options NodejsFunction derives from nodejsBundling(), for a build outside CDK. */
export function esbuildOptions(entryPoint: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    target: HANDLER_BUNDLE.target,
    format: HANDLER_BUNDLE.format,
    minify: HANDLER_BUNDLE.minify,
    sourcemap: HANDLER_BUNDLE.sourceMap,
    mainFields: [...HANDLER_BUNDLE.mainFields],
    external: [...HANDLER_BUNDLE.externalModules],
    logLevel: 'warning',
  };
}

export const FUNCTION_IDS = [
  'batch-screen',
  'image-search',
  'account',
  'usage',
  'get-allowlist',
  'put-allowlist',
  'feedback',
  'put-watch',
  'get-watch',
  'delete-watch',
  'get-alerts',
  'ack-alerts',
  'put-webhook',
  'get-webhook',
  'delete-webhook',
  'test-webhook',
  'webhook-dead-letters',
  'redeliver-webhook',
  'openapi',
  'status',
  'docs',
  'ingest',
  'register-update',
  'register-backfile',
  'tro-docket',
  'watch-rescreen',
  'webhook-deliver',
  'not-found',
] as const;
export type FunctionId = (typeof FUNCTION_IDS)[number];

export const PROJECT_ROOT = path.resolve(__dirname, '../..');

/** The handler file of each function (absolute path). */
export function handlerEntry(id: FunctionId): string {
  return path.join(PROJECT_ROOT, 'functions', id, 'handler.ts');
}
