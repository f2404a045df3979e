/**
 * In-process logo indexes kept as usearch files in a folder: `<market>-<embedder>.usearch` and its metadata file
 * (`.meta`; an index saved before it has a `.json` sidecar instead, read until the next save). Locally the folder is .local/indexes; in Lambda it is /tmp, filled from S3 by S3UsearchIndexStore.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Market } from '../../marks/mark-record';
import type { Embedder, LogoIndexStore, VectorIndex } from '../../ports';
import { UsearchVectorIndex, legacySidecarOf, metadataFileOf } from './usearch-vector-index';

export class FolderUsearchIndexStore implements LogoIndexStore {
  constructor(private readonly folder: string) {}

  fileOf(market: Market, embedder: Pick<Embedder, 'name'>): string {
    return path.join(this.folder, `${market}-${embedder.name}.usearch`);
  }

  async load(
    market: Market,
    embedder: Pick<Embedder, 'name' | 'dimensions'>,
    options: { readOnly?: boolean } = {},
  ): Promise<VectorIndex> {
    const file = this.fileOf(market, embedder);
    // A search maps the file (save replaces it by a rename, so a mapped file is never written over).
    return existsSync(file)
      ? UsearchVectorIndex.load(file, { view: options.readOnly === true })
      : new UsearchVectorIndex(embedder.dimensions);
  }

  async save(market: Market, embedder: Pick<Embedder, 'name' | 'dimensions'>, index: VectorIndex): Promise<void> {
    if (!(index instanceof UsearchVectorIndex)) throw new Error('only usearch indexes are kept in a folder');
    mkdirSync(this.folder, { recursive: true });
    // Written aside and renamed into place, so a search that loads meanwhile reads the old index or the new one.
    const file = this.fileOf(market, embedder);
    const partial = `${file}.partial`;
    index.save(partial);
    renameSync(metadataFileOf(partial), metadataFileOf(file));
    renameSync(partial, file);
    rmSync(legacySidecarOf(file), { force: true });
  }
}
