/**
 * Everything the process writes to stdout and stderr while a test runs: Powertools Logger and Metrics lines and
 * anything sent through console. Restore it in afterEach (or finally), or jest's own output goes missing.
 */
export interface CapturedOutput {
  /** Every non-empty line written so far. */
  lines(): string[];
  restore(): void;
}

export function captureOutput(): CapturedOutput {
  const captured: string[] = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array) => {
      captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof stream.write;
  }
  return {
    lines: () => captured.join('').split('\n').filter(Boolean),
    restore: () => {
      streams.forEach((stream, i) => {
        stream.write = writes[i]!;
      });
    },
  };
}
