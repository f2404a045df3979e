// Every test file gets a state folder of its own (and so do the processes it starts): a test never reads or
// removes the runtime file or the indexes of an `npm start` running beside it.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

process.env.TMK_STATE_DIR = mkdtempSync(path.join(os.tmpdir(), 'tmk-test-state-'));
