import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import { SHORT_RUN_V8_FLAGS } from '../../src/platform/db/short-run-wasm.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `dir` made a data folder that holds the run's migrated template database (global-setup.ts), for a test whose
 * subject is not the making of a new folder: its server or command starts without the initdb child and the
 * migrations, about 6 s of CPU each on the 2-core machine (test/README.md, "Where the time goes"). The making of
 * a new folder keeps its own tests (embedded-database, startup-errors, container-layout, cli), which
 * start on an empty one. Answers `dir`.
 */
export function migratedDataDir(dir: string): string {
  fs.cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  return dir;
}

/**
 * The server's environment for a test whose subject is not what a password hash costs: the passwords it hashes (the
 * first administrator, the demo users, users made over REST) take the in-process tests' cheap scrypt cost, a few
 * milliseconds instead of a fifth of a second of a core each (`ADDON_PAIR_TEST_CHEAP_HASHES`, a test knob:
 * src/platform/test-knobs.ts). Every answer stays the same. Not for a test of logins under load (sign-in-burst),
 * which needs the real cost; a command line (`runCli`) reads no knob and hashes at the real cost.
 */
export const CHEAP_HASHES = { ADDON_PAIR_TEST_CHEAP_HASHES: '1' } as const;

/**
 * The per-test time limit of a describe whose tests each start several processes (a server, commands, data
 * folders): 8–15 s per test on a quiet 2-core machine, so vitest's default of 30 s would not hold on a slower or
 * busier one. `describe(name, SEVERAL_PROCESSES, () => …)`.
 */
export const SEVERAL_PROCESSES = { timeout: 120_000 } as const;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * A test's process runs for seconds, as a command does: its PGlite WebAssembly stays on V8's baseline compiler
 * (short-run-wasm.ts), the server's too, which alone lets V8 optimise what is hot for a run of hours. A server
 * start then took about 1 s less CPU (1.4–1.7 s against 2.4–2.8 s from spawn to the first 200 of /status, three
 * in turns at a load of 12) and its stop no longer waits for the optimising compiler's threads. Commands set the
 * same flags themselves (main.ts); what the tests prove is the same code's behaviour, not its speed. For a test
 * that spawns `node` itself, before the script.
 */
export const TEST_PROCESS_NODE_ARGS: readonly string[] = SHORT_RUN_V8_FLAGS.split(' ');

/**
 * Runs `addon-pair <args>` as a real process, from the bundle as a linked `addon-pair`, `npm run cli` and `npm start` do
 * (bin/addon-pair.mjs rebuilds it first when a source file is newer), and collects its output.
 */
export function runCli(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, [...TEST_PROCESS_NODE_ARGS, 'bin/addon-pair.mjs', ...args], {
    cwd: ROOT,
    // PASSWORD_MIN_LENGTH: test-only, so the fixtures' short passwords stay valid (as in helpers/test-app.ts).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', PASSWORD_MIN_LENGTH: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
  return { child, done };
}

/** Starts a server process and waits until GET /status answers 200 (or the process dies). */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, done } = runCli(['serve'], { PORT: String(port), HOST: '127.0.0.1', BASE_URL: url, ...env });
  let exited: { code: number | null; output: string } | undefined;
  void done.then((r) => (exited = r));
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited with ${exited.code}: ${exited.output}`);
    try {
      const res = await fetch(`${url}/status`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    // A refused connection costs next to nothing: a short wait finds the server soon after it listens.
    await new Promise((r) => setTimeout(r, 25));
  }
  if (Date.now() >= deadline) {
    child.kill('SIGKILL');
    throw new Error(`server did not start in time: ${output}`);
  }
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (exited) return exited.code;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const r = await done;
      clearTimeout(killer);
      return r.code;
    },
  };
}
