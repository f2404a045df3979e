/**
 * A batch's records as a plain stream, whatever its packaging: `.gz` is gunzipped as it streams; `.zip` needs
 * random access, so it is copied to a temporary file first and its first matching entry is read from there.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
    await pipeline(await blobs.open(key), createWriteStream(file));
    const stream = await openBatchStream(file, { entryExtension });
    return { stream, close: () => rm(dir, { recursive: true, force: true }) };
  }
  const raw = await blobs.open(key);
  const stream = lower.endsWith('.gz') ? Readable.from(raw as AsyncIterable<Buffer>).pipe(createGunzip()) : raw;
  return { stream, close: async () => undefined };
}
