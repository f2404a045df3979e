/**
 * The in-process logo indexes kept in S3 (`<prefix><market>-<embedder>.usearch` and its `.meta` metadata file) and
 * used from a local folder (Lambda's /tmp): ingest saves them there, the search function loads them at cold start.
 * An index saved before the metadata file has a `.json` sidecar instead; it is downloaded when there is no `.meta`,
 * until ingest saves that index again (the stale `.json` object is then left in the bucket, never read).
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Market } from '../../marks/mark-record';
import type { Embedder, LogoIndexStore, VectorIndex } from '../../ports';
import { legacySidecarOf, metadataFileOf } from '../local/usearch-vector-index';
import { FolderUsearchIndexStore } from '../local/usearch-index-store';

const isMissing = (error: unknown) => (error as { name?: string }).name === 'NoSuchKey';

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

  private keyOf(market: Market, embedder: Pick<Embedder, 'name'>): string {
    return `${this.prefix}${market}-${embedder.name}.usearch`;
  }

  async load(
    market: Market,
    embedder: Pick<Embedder, 'name' | 'dimensions'>,
    options: { readOnly?: boolean } = {},
  ): Promise<VectorIndex> {
    const file = this.local.fileOf(market, embedder);
    const key = this.keyOf(market, embedder);
    mkdirSync(this.folder, { recursive: true });
    try {
      await this.download(key, file);
      try {
        await this.download(metadataFileOf(key), metadataFileOf(file));
      } catch (error) {
        if (!isMissing(error)) throw error;
        // An index saved before the metadata file: its sidecar, and no older `.meta` left here to be read instead.
        await this.download(legacySidecarOf(key), legacySidecarOf(file));
        rmSync(metadataFileOf(file), { force: true });
      }
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    return this.local.load(market, embedder, options);
  }

  async save(market: Market, embedder: Pick<Embedder, 'name' | 'dimensions'>, index: VectorIndex): Promise<void> {
    await this.local.save(market, embedder, index);
    const file = this.local.fileOf(market, embedder);
    const key = this.keyOf(market, embedder);
    // The index first, its metadata last: a reader that sees the new metadata finds the new index beside it.
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: readFileSync(file) }));
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: metadataFileOf(key), Body: readFileSync(metadataFileOf(file)) }),
    );
  }

  private async download(key: string, target: string): Promise<void> {
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    // Written aside and renamed: an index searched from a mapping of the previous file keeps its own copy.
    writeFileSync(`${target}.partial`, Buffer.from(await out.Body!.transformToByteArray()));
    renameSync(`${target}.partial`, target);
  }
}

export const DEFAULT_INDEX_FOLDER = path.join('/tmp', 'logo-indexes');
