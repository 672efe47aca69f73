import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHEAP_HASHES, freePort, migratedDataDir, runCli } from '../helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-npm-start-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// A folder made before: these tests are about npm and the signals (a new folder's making has tests of its own).
const dataDir = migratedDataDir(path.join(dir, 'data'));

/** `npm start` as a person runs it, in the repository, with its own port and data folder. */
async function npmStart(port: number) {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO: '0', ...CHEAP_HASHES },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a test that gives up can end npm and the server it started together.
    detached: true,
  });
  const killAll = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Generous: npm, the bundle's freshness check and the server's start are slow on a busy 2-core machine.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (Date.now() > deadline) {
      killAll();
      throw new Error(`npm start did not answer: ${output}`);
    }
    if (child.exitCode !== null) throw new Error(`npm start exited: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port, child, exited, output: () => output, killAll };
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('npm start', { timeout: 300_000 }, () => {
  // The server the `user add` test started, left running for the SIGTERM test to end: one start less.
  let running: Awaited<ReturnType<typeof npmStart>> | undefined;
  afterAll(() => running?.killAll());

  it('the running server takes `user add`; a command that must open the database says clearly to stop it first', async () => {
    const started = await npmStart(await freePort());
    running = started;
    const env = { DATA_DIR: dataDir };
    const added = await runCli(['user', 'add', 'zoe', '--password', 'zoe-long-enough-secret'], env).done;
    expect(added).toEqual({ code: 0, output: 'created user zoe (groups: users)\n' });
    const me = await fetch(`http://127.0.0.1:${started.port}/rest/api/2/myself`, {
      headers: { Authorization: `Basic ${Buffer.from('zoe:zoe-long-enough-secret').toString('base64')}` },
    });
    expect(me.status).toBe(200);
    const r = await runCli(['migrate'], env).done;
    expect(r.code).toBe(1);
    expect(r.output.trim()).toMatch(/^The data directory .* is in use by another addon-pair process \(pid \d+\): stop that server first/);
  }, 300_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`ends together with the server when npm gets ${signal}: the port and the data folder are free again`, async () => {
      // SIGTERM ends the server the test above left running (a fresh one if it has none), SIGINT one of its own.
      const started = (signal === 'SIGTERM' && running?.child.exitCode === null ? running : undefined) ?? (await npmStart(await freePort()));
      running = undefined;
      started.child.kill(signal);
      const killer = setTimeout(started.killAll, 20_000);
      await started.exited;
      clearTimeout(killer);
      // No orphan: nothing answers on the port and the data folder's lock is gone.
      expect(await portIsFree(started.port)).toBe(true);
      expect(fs.existsSync(path.join(dir, 'data', 'addon-pair.lock'))).toBe(false);
    }, 300_000);
  }
});
