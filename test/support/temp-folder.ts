/** A fresh folder under the system's temp folder for each test of a describe block, removed after it. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Registers beforeEach/afterEach in the calling block; the returned function gives the current test's folder. */
export function tempFolderEachTest(prefix: string): () => string {
  let folder: string | undefined;
  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });
  return () => {
    if (folder === undefined) throw new Error('tempFolderEachTest: no test is running');
    return folder;
  };
}
