import path from 'node:path';

/**
 * The folder of the local runtime's state (its runtime file, its logo indexes): `.local/` in the checkout, or
 * TMK_STATE_DIR. Every test run, benchmark and evaluation sets its own, so that none of them ever reads or removes
 * the state of an `npm start` running beside it.
 */
export const STATE_DIR = process.env.TMK_STATE_DIR
  ? path.resolve(process.env.TMK_STATE_DIR)
  : path.join(__dirname, '../.local');

/** Written by `npm start` while it runs, so that `npm run admin` finds the local tables. */
export const RUNTIME_FILE = path.join(STATE_DIR, 'runtime.json');
