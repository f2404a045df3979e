/** Data batches from S3: the object's body as a stream, never the whole object in memory. */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../ports';

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async open(key: string): Promise<NodeJS.ReadableStream> {
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!out.Body) throw new Error(`s3://${this.bucket}/${key} has no body`);
    return out.Body as Readable;
  }
}
