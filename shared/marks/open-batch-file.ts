import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * Opens a batch file as one byte stream, whatever its packaging: the USPTO publishes daily and annual XML as
 * .zip, mirrors often re-compress as .gz, and local samples are plain. Nothing is unpacked to disk or memory: a
 * .gz is inflated as it is read and a .zip entry is streamed straight from the archive.
 */

export interface OpenBatchOptions {
  /** The entry a .zip must contain, by extension; the first such entry in the archive is used. */
  entryExtension?: string;
}

const PLAIN_EXTENSIONS = ['.xml', '.jsonl', '.ndjson', '.csv', '.txt'];

/** The batch file cannot be opened, or its packaging (gzip, zip) turns out to be corrupt while it is read. */
export class BatchFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchFileError';
  }
}

export async function openBatchStream(filePath: string, options: OpenBatchOptions = {}): Promise<Readable> {
  const lowerPath = filePath.toLowerCase();
  if (lowerPath.endsWith('.gz')) return gunzipped(filePath);
  if (lowerPath.endsWith('.zip')) return firstZipEntry(filePath, (options.entryExtension ?? '.xml').toLowerCase());
  if (PLAIN_EXTENSIONS.some((extension) => lowerPath.endsWith(extension))) return opened(filePath);
  throw new BatchFileError(
    `${filePath}: unsupported batch file type; expected ${PLAIN_EXTENSIONS.join(', ')}, optionally as .gz, or a .zip`,
  );
}

/** Waits for the file to open so a missing file fails here, not on the first read of whoever consumes the stream. */
function opened(filePath: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(filePath);
    stream.once('open', () => resolve(stream));
    stream.once('error', (error) => reject(new BatchFileError(`${filePath}: ${error.message}`)));
  });
}

/**
 * The consumer only sees the last stream of a chain, and pipe() forwards no errors: every failure along the way
 * (a read error, corrupt compressed data) is turned into one BatchFileError on the stream it reads.
 */
function readableWithFileErrors(streams: Readable[], last: Readable, filePath: string): Readable {
  const output = new PassThrough();
  const fail = (error: Error): void => {
    output.destroy(new BatchFileError(`${filePath}: cannot be read (${error.message})`));
  };
  for (const stream of [...streams, last]) stream.on('error', fail);
  output.on('close', () => {
    for (const stream of [...streams, last]) stream.destroy();
  });
  return last.pipe(output);
}

async function gunzipped(filePath: string): Promise<Readable> {
  const compressed = await opened(filePath);
  const gunzip = createGunzip();
  return readableWithFileErrors([compressed], compressed.pipe(gunzip), filePath);
}

function firstZipEntry(filePath: string, entryExtension: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    yauzl.open(filePath, { lazyEntries: true, autoClose: false }, (openError, zipFile) => {
      if (openError || !zipFile) {
        reject(new BatchFileError(`${filePath}: not a readable zip archive (${openError?.message ?? 'no archive'})`));
        return;
      }
      const fail = (message: string): void => {
        zipFile.close();
        reject(new BatchFileError(`${filePath}: ${message}`));
      };
      zipFile.on('error', (error: Error) => fail(error.message));
      zipFile.on('end', () => fail(`the archive holds no ${entryExtension} file`));
      zipFile.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.toLowerCase();
        const isDirectory = name.endsWith('/');
        // macOS archivers add __MACOSX/._name resource forks that carry the same extension.
        const isResourceFork = name.startsWith('__macosx/') || /(^|\/)\._/.test(name);
        if (isDirectory || isResourceFork || !name.endsWith(entryExtension)) {
          zipFile.readEntry();
          return;
        }
        zipFile.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) {
            fail(`cannot read ${entry.fileName} (${streamError?.message ?? 'no stream'})`);
            return;
          }
          // The archive stays open while the entry is read; close() only releases it once the entry stream ends.
          zipFile.close();
          resolve(readableWithFileErrors([], stream, `${filePath} (${entry.fileName})`));
        });
      });
      zipFile.readEntry();
    });
  });
}
