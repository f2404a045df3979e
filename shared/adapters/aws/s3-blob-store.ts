/** Data batches on S3: read as a stream, never the whole object in memory; fetched files written the same way. */
import { GetObjectCommand, HeadObjectCommand, NotFound, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import type { BlobStore, WritableBlobStore } from '../../ports';

export class S3BlobStore implements BlobStore, WritableBlobStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async open(key: string): Promise<NodeJS.ReadableStream> {
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!out.Body) throw new Error(`s3://${this.bucket}/${key} has no body`);
    return out.Body as Readable;
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const out = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.ContentLength;
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  }

  /** A multipart upload for a stream (parts of the backfile are hundreds of megabytes); an object appears whole. */
  async put(key: string, body: Uint8Array | NodeJS.ReadableStream): Promise<void> {
    await new Upload({
      client: this.s3,
      params: { Bucket: this.bucket, Key: key, Body: body as Readable | Uint8Array },
    }).done();
  }
}
