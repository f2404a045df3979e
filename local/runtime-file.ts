import path from 'node:path';

/** Written by `npm start` while it runs, so that `npm run admin` finds the local tables. */
export const RUNTIME_FILE = path.join(__dirname, '../.local/runtime.json');
