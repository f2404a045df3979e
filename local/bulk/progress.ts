/** A one-line progress bar on stderr: done/total, percent, rate and ETA, redrawn at most every 200 ms. */
export function createProgress(options: {
  total: number;
  unit: string;
  write?: (text: string) => void;
  now?: () => number;
  alreadyDone?: number;
}) {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const now = options.now ?? (() => Date.now());
  const started = now();
  const base = options.alreadyDone ?? 0;
  let done = base;
  let drawnAt = 0;

  const line = (): string => {
    const elapsed = Math.max(1e-3, (now() - started) / 1000);
    const rate = (done - base) / elapsed;
    const share = options.total > 0 ? Math.min(1, done / options.total) : 1;
    const width = 30;
    const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
    const eta = rate > 0 ? Math.max(0, (options.total - done) / rate) : Number.NaN;
    const etaText = Number.isFinite(eta)
      ? `${Math.floor(eta / 60)}m${String(Math.round(eta % 60)).padStart(2, '0')}s`
      : '--';
    return `[${bar}] ${done.toLocaleString('en-US')}/${options.total.toLocaleString('en-US')} ${(share * 100).toFixed(1)}%  ${rate.toFixed(0)} ${options.unit}/s  ETA ${etaText}`;
  };

  return {
    advance(count: number) {
      done += count;
      if (now() - drawnAt >= 200 || done >= options.total) {
        drawnAt = now();
        write(`\r${line()}`);
      }
    },
    finish(): string {
      const text = line();
      write(`\r${text}\n`);
      return text;
    },
    rate(): number {
      return (done - base) / Math.max(1e-3, (now() - started) / 1000);
    },
  };
}
