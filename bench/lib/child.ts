// Spawning and stopping the server-like child processes (the app and the two baselines).
// Every child is started as `node --import tsx <script>` rather than through the `tsx`
// binary: the tsx CLI forks a second node process, and then the pid we sample VmRSS
// from would be the wrapper's, not the server's.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunningChild {
  name: string;
  pid: number;
  port: number;
  baseUrl: string;
  logPath: string;
  /** Last lines of stdout+stderr, for error messages. */
  tail(): string;
  /** null while running, else how it ended, e.g. `exit code 1` or `signal SIGABRT`. */
  exitInfo(): string | null;
  /** SIGTERM, then SIGKILL after `graceMs`. Resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Asks the kernel for a free port by listening on 0. Racy in theory, fine for a bench. */
export async function freePort(): Promise<number> {
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

const TAIL_LINES = 40;

export function spawnNode(
  name: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; port: number; stdio?: 'log' | 'pipe' },
): { child: ChildProcess; running: RunningChild } {
  // A built bundle (the production start path) runs on plain node with `npm start`'s flags; TypeScript through tsx.
  const runtime = /\.m?js$/.test(args[0] ?? '') ? ['--max-semi-space-size=4', '--enable-source-maps'] : ['--import', 'tsx'];
  return spawnProcess(name, process.execPath, [...runtime, ...args], options);
}

/** Any server-like executable (node, nginx), with its output in `$TMPDIR/addon-pair-bench-<name>-<pid>.log`. */
export function spawnProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; port: number },
): { child: ChildProcess; running: RunningChild } {
  const logPath = join(tmpdir(), `addon-pair-bench-${name}-${process.pid}.log`);
  const log = createWriteStream(logPath);
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const capture = (chunk: Buffer): void => {
    log.write(chunk);
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
    }
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
  });
  exited.then(
    () => log.end(),
    () => log.end(),
  );

  if (child.pid === undefined) throw new Error(`could not spawn ${name}`);
  const running: RunningChild = {
    name,
    pid: child.pid,
    port: options.port,
    baseUrl: `http://127.0.0.1:${options.port}`,
    logPath,
    tail: () => lines.join('\n'),
    exitInfo() {
      if (child.signalCode !== null) return `signal ${child.signalCode}`;
      return child.exitCode !== null ? `exit code ${child.exitCode}` : null;
    },
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  return { child, running };
}

/**
 * Polls `url` until it answers 200. Fails early if the child exits, so a crash
 * during start-up is reported with its log instead of a 60 s time-out.
 */
export async function waitForHttp(
  child: ChildProcess,
  running: RunningChild,
  path: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${running.name} exited (${child.exitCode ?? child.signalCode}) before ${path} answered 200\n` +
          `--- last output (${running.logPath}) ---\n${running.tail()}`,
      );
    }
    try {
      const res = await fetch(running.baseUrl + path, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
      lastError = `status ${res.status}`;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    await sleep(200);
  }
  await running.stop();
  throw new Error(
    `${running.name}: ${path} did not answer 200 within ${timeoutMs / 1000} s (${lastError})\n` +
      `--- last output (${running.logPath}) ---\n${running.tail()}`,
  );
}
