/**
 * The in-process logo indexes kept in S3 (`<prefix><market>-<embedder>.usearch` and its `.json` sidecar) and used
 * from a local folder (Lambda's /tmp): ingest saves them there, the search function loads them at cold start.
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Market } from '../../marks/mark-record';
import type { Embedder, LogoIndexStore, VectorIndex } from '../../ports';
import { FolderUsearchIndexStore } from '../local/usearch-index-store';

export class S3UsearchIndexStore implements LogoIndexStore {
  private readonly local: FolderUsearchIndexStore;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
    private readonly folder: string,
  ) {
    this.local = new FolderUsearchIndexStore(folder);
  }

  private keysOf(market: Market, embedder: Pick<Embedder, 'name'>): [string, string] {
    const base = `${this.prefix}${market}-${embedder.name}.usearch`;
    return [base, `${base}.json`];
  }

  async load(
    market: Market,
    embedder: Pick<Embedder, 'name' | 'dimensions'>,
    options: { readOnly?: boolean } = {},
  ): Promise<VectorIndex> {
    const file = this.local.fileOf(market, embedder);
    mkdirSync(this.folder, { recursive: true });
    try {
      for (const [key, target] of this.keysOf(market, embedder).map(
        (k, i) => [k, i === 0 ? file : `${file}.json`] as const,
      )) {
        const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
        // Written aside and renamed: an index searched from a mapping of the previous file keeps its own copy.
        writeFileSync(`${target}.partial`, Buffer.from(await out.Body!.transformToByteArray()));
        renameSync(`${target}.partial`, target);
      }
    } catch (error) {
      if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
    }
    return this.local.load(market, embedder, options);
  }

  async save(market: Market, embedder: Pick<Embedder, 'name' | 'dimensions'>, index: VectorIndex): Promise<void> {
    await this.local.save(market, embedder, index);
    const file = this.local.fileOf(market, embedder);
    const [indexKey, sidecarKey] = this.keysOf(market, embedder);
    // The index first, its sidecar last: a reader that sees the new sidecar finds the new index beside it.
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: indexKey, Body: readFileSync(file) }));
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: sidecarKey, Body: readFileSync(`${file}.json`) }),
    );
  }
}

export const DEFAULT_INDEX_FOLDER = path.join('/tmp', 'logo-indexes');
