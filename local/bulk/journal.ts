/**
 * What makes a bulk run resumable: a journal beside the output (`<out>.journal`), one JSON line per finished unit
 * (a batch of rows, or an image), written after the unit's rows are in the output file and flushed. The first line
 * names the run: its id seeds every Idempotency-Key, so a unit sent again after an interruption is answered from
 * the first call (within the API's 24 hours) and never charged twice.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';

export interface JournalEntry {
  /** Batch number or file name. */
  unit: string;
  /** Rows of the output file once this unit was written. */
  rows: number;
  /** Bytes of the output file once this unit was written: a resumed run cuts anything after the last entry. */
  bytes: number;
}

export interface Journal {
  runId: string;
  done: Map<string, JournalEntry>;
  /** The output's size after the last finished unit (0 before any). */
  outputBytes: number;
  rows: number;
  record(entry: JournalEntry): void;
  close(): void;
}

/** Opens the journal of `out`: resumes it when it exists (and `fresh` is not asked), otherwise starts a new run. */
/**
 * `fingerprint` (the input's size and modification time) is kept in the journal: resuming over an input that has
 * changed since would skip rows that were never screened, so it is refused.
 */
export function openJournal(out: string, options: { fresh?: boolean; input: string; fingerprint?: string }): Journal {
  const file = `${out}.journal`;
  let runId: string = randomUUID();
  const done = new Map<string, JournalEntry>();
  if (!options.fresh && existsSync(file)) {
    const [head, ...lines] = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const header = JSON.parse(head ?? '{}') as { runId?: string; input?: string; fingerprint?: string };
    if (!header.runId) throw new Error(`${file} is not a journal of this tool; remove it or pass --fresh`);
    if (header.input !== options.input)
      throw new Error(
        `${file} belongs to a run over ${header.input}, not ${options.input}; pass --fresh to start over`,
      );
    if (header.fingerprint !== options.fingerprint)
      throw new Error(`${options.input} has changed since the interrupted run; pass --fresh to start over`);
    runId = header.runId;
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as JournalEntry;
        done.set(entry.unit, entry);
      } catch {
        // A line cut off by the interruption: that unit is simply done again.
      }
    }
  }
  const last = [...done.values()].reduce<JournalEntry | undefined>(
    (max, e) => (!max || e.bytes > max.bytes ? e : max),
    undefined,
  );
  const outputBytes = last?.bytes ?? 0;
  if (existsSync(out) && statSync(out).size > outputBytes && done.size > 0) truncateSync(out, outputBytes);
  const fd = openSync(file, done.size > 0 ? 'a' : 'w');
  if (done.size === 0)
    writeSync(
      fd,
      `${JSON.stringify({ runId, input: options.input, fingerprint: options.fingerprint, startedAt: new Date().toISOString() })}\n`,
    );
  return {
    runId,
    done,
    outputBytes,
    rows: last?.rows ?? 0,
    record(entry) {
      done.set(entry.unit, entry);
      writeSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    },
    close: () => closeSync(fd),
  };
}
