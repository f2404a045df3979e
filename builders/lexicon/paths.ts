/** Where the lexicon builder reads its sources and writes the lexicon. */
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
export const DEFAULT_SHARED_DIR = path.resolve(ROOT, '../shared');
export const LEXICON_FILE = path.join(ROOT, 'data/lexicon/lexicon.json');
