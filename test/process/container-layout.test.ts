import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, TEST_PROCESS_NODE_ARGS } from '../helpers/server-process.ts';

/**
 * The runtime stage of the Dockerfile, reproduced without Docker: /app holds package.json, bin/, dist/ and
 * node_modules owned by root, and data/ owned by uid 1000 (the image's `node`), and the bundle runs as that
 * unprivileged user (setpriv). Needs root (to change user); skipped otherwise.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE_UID = 1000;
const canSwitchUser = process.getuid?.() === 0 && fs.existsSync('/usr/bin/setpriv');
const app = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-image-'));
afterAll(() => fs.rmSync(app, { recursive: true, force: true }));

/**
 * The image's /app: the current bundle (built only when a source is newer than dist/, as `npm start` does; a full
 * build also remakes the data template, seconds of initdb, which these tests do not need), bin/ and package.json,
 * laid out once for the file.
 */
function layOutApp() {
  fs.chmodSync(app, 0o755);
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stdout}${built.stderr}`);
  fs.cpSync(path.join(ROOT, 'dist'), path.join(app, 'dist'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'bin'), path.join(app, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
  // The production dependencies are in the repository's node_modules too; a link saves copying 200 MB.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'));
}

/** A new, empty data/, owned by the image's user or (the old image) by root. */
function layOutData(dataOwnedByNode: boolean) {
  fs.rmSync(path.join(app, 'data'), { recursive: true, force: true });
  fs.mkdirSync(path.join(app, 'data'));
  if (dataOwnedByNode) fs.chownSync(path.join(app, 'data'), NODE_UID, NODE_UID);
}

function runAsNode(args: string[], env: Record<string, string>) {
  const child = spawn('/usr/bin/setpriv', ['--reuid', String(NODE_UID), '--regid', String(NODE_UID), '--clear-groups', process.execPath, ...TEST_PROCESS_NODE_ARGS, ...args], {
    cwd: app,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', DATA_DIR: path.join(app, 'data'), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { child, exited, output: () => output };
}

describe.skipIf(!canSwitchUser)('the container layout, as the unprivileged user', { timeout: 300_000 }, () => {
  beforeAll(layOutApp, 120_000);

  it('serves from the bundle with the embedded database in data/, writing nothing else', async () => {
    layOutData(true);
    const port = await freePort();
    const server = runAsNode(['dist/main.mjs', 'serve'], { PORT: String(port), ADMIN_PASSWORD: 'image-pw', DEMO: '0' });
    try {
      const deadline = Date.now() + 240_000;
      let status = 0;
      while (Date.now() < deadline && server.child.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.status, () => 0);
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status, server.output()).toBe(200);
      const me = await fetch(`http://127.0.0.1:${port}/rest/api/2/myself`, {
        headers: { Authorization: `Basic ${Buffer.from('admin:image-pw').toString('base64')}` },
      });
      expect(me.status).toBe(200);
      // The banner prints only what works in the shell of whoever started it: never the password, nor a
      // variable ($ADMIN_PASSWORD) that may have been set inline or in .env and so be empty in that shell.
      expect(server.output()).toContain('administrator: admin / (the ADMIN_PASSWORD you set)');
      expect(server.output()).toContain('curl -u admin http://');
      expect(server.output()).not.toMatch(/image-pw|\$ADMIN_PASSWORD|\$\{?[A-Z_]+/);
      expect(fs.statSync(path.join(app, 'data', 'PG_VERSION')).uid).toBe(NODE_UID);
      // Only data/ changed: the application files are as root left them.
      expect(fs.readdirSync(app).sort()).toEqual(['bin', 'data', 'dist', 'node_modules', 'package.json']);
      // `docker compose exec app node dist/main.mjs user add …`: the same user, so the running server takes it.
      const add = runAsNode(['dist/main.mjs', 'user', 'add', 'bob', '--password', 'bob-image-long-secret'], {});
      expect(await add.exited, add.output()).toBe(0);
      const bob = await fetch(`http://127.0.0.1:${port}/rest/api/2/myself`, {
        headers: { Authorization: `Basic ${Buffer.from('bob:bob-image-long-secret').toString('base64')}` },
      });
      expect(bob.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);

  it('the command line works the same way (the health check and `exec … node dist/main.mjs`)', async () => {
    const help = runAsNode(['bin/addon-pair.mjs', 'help'], {});
    expect(await help.exited).toBe(0);
    expect(help.output()).toMatch(/^Usage: addon-pair/);
  });

  it('a data folder the user does not own (the old image) stops at once with one line, not EACCES deep in PGlite', async () => {
    layOutData(false);
    const r = runAsNode(['dist/main.mjs', 'serve'], { PORT: '0', ADMIN_PASSWORD: 'x' });
    expect(await r.exited).toBe(1);
    expect(r.output().trim()).toBe(
      `DATA_DIR ${path.join(app, 'data')} cannot be created or written (EACCES): set DATA_DIR to a folder this user may write, or fix its permissions.`,
    );
  });
});
