/** Data batches from a local folder: the local stand-in for the S3 bucket where batches arrive. */
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '../../ports';

export class FileSystemBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async open(key: string): Promise<NodeJS.ReadableStream> {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`key outside the store: ${key}`);
    await access(resolved);
    return createReadStream(resolved);
  }
}
