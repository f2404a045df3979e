/**
 * Runs AWS DynamoDB Local (the jar shipped in the npm package `amplify-dynamodb-simulator`) as a child process.
 * Used by `npm start` and by the test suites; in memory, no telemetry, on a free loopback port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  pid: number;
  /** SIGTERM (then SIGKILL after 3 s); `{ kill: true }` kills at once, as a crash would. */
  stop(options?: { kill?: boolean }): Promise<void>;
}

export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer, and `java` was not found on PATH. ' +
        'Install it (Debian/Ubuntu: `apt-get install -y openjdk-17-jre-headless`; macOS: `brew install openjdk@17`) and run again.',
    );
  }
}

function emulatorDir(): string {
  const pkg = require.resolve('amplify-dynamodb-simulator/package.json');
  return path.join(path.dirname(pkg), 'emulator');
}

export function assertJavaAvailable(env: NodeJS.ProcessEnv = process.env): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8', env });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilListening(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited early with code ${child.exitCode}`);
    try {
      // Any HTTP answer means the engine is up; an unsigned request is refused with 400, which is fine here.
      await fetch(endpoint, { method: 'POST', signal: AbortSignal.timeout(1000) });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`DynamoDB Local did not start within ${timeoutMs} ms: ${String(lastError)}`);
}

/** The engine's Java heap unless a caller asks for more: enough for the tests and the sample register. */
const DEFAULT_HEAP_MB = 1024;

/**
 * In memory unless `dbPath` is given (a folder: the data then outlives a restart, which fault tests need).
 * `heapMb` raises the Java heap: a register of a million marks loaded from scratch needs about 4 GB, and the
 * engine stops its last writes with an internal error when it runs short.
 */
export async function startDynamoDbLocal(
  options: { port?: number; timeoutMs?: number; dbPath?: string; heapMb?: number } = {},
): Promise<DynamoDbLocal> {
  assertJavaAvailable();
  const port = options.port ?? (await freePort());
  const dir = emulatorDir();
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${path.join(dir, 'DynamoDBLocal_lib')}`,
      `-Xmx${options.heapMb ?? DEFAULT_HEAP_MB}m`,
      '-jar',
      path.join(dir, 'DynamoDBLocal.jar'),
      ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilListening(endpoint, child, options.timeoutMs ?? 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return {
    endpoint,
    port,
    pid: child.pid ?? -1,
    stop: (stopOptions = {}) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(stopOptions.kill ? 'SIGKILL' : 'SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
