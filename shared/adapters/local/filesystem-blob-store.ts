/** Data batches in a local folder: the local stand-in for the S3 bucket where batches arrive and fetched files land. */
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, WritableBlobStore } from '../../ports';

export class FileSystemBlobStore implements BlobStore, WritableBlobStore {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`key outside the store: ${key}`);
    return resolved;
  }

  async open(key: string): Promise<NodeJS.ReadableStream> {
    const resolved = this.resolve(key);
    await access(resolved);
    return createReadStream(resolved);
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.resolve(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Written beside its place and renamed into it, so that a reader never sees half a file. */
  async put(key: string, body: Uint8Array | NodeJS.ReadableStream): Promise<void> {
    const resolved = this.resolve(key);
    await mkdir(path.dirname(resolved), { recursive: true });
    const partial = `${resolved}.partial-${process.pid}`;
    try {
      const source = body instanceof Uint8Array ? Readable.from([body]) : (body as Readable);
      await pipeline(source, createWriteStream(partial));
      await rename(partial, resolved);
    } finally {
      await rm(partial, { force: true });
    }
  }
}
