/**
 * A batch's records as a plain stream, whatever its packaging: `.gz` is gunzipped as it streams; `.zip` needs
 * random access, so it is copied to a temporary file first and its first matching entry is read from there.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { openBatchStream } from '../marks/open-batch-file';
import type { BlobStore } from '../ports';

export interface OpenedBatch {
  stream: NodeJS.ReadableStream;
  close(): Promise<void>;
}

export async function openBatch(blobs: BlobStore, key: string, entryExtension: string): Promise<OpenedBatch> {
  const lower = key.toLowerCase();
  if (lower.endsWith('.zip')) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'batch-'));
    const file = path.join(dir, 'batch.zip');
    await pipelineAsync(await blobs.open(key), createWriteStream(file));
    const stream = await openBatchStream(file, { entryExtension });
    return { stream, close: () => rm(dir, { recursive: true, force: true }) };
  }
  const raw = (await blobs.open(key)) as Readable;
  // pipeline() listens for errors on every stage from the start (a connection reset while the batch waits for its
  // lock must not go unheard) and hands the first one to whoever reads the end.
  const stream = new PassThrough();
  pipeline([raw, ...(lower.endsWith('.gz') ? [createGunzip()] : []), stream], () => undefined);
  return { stream, close: async () => undefined };
}
