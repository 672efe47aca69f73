import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir, SEVERAL_PROCESSES } from '../helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

// Issue 42: the command line from any folder, without asking a registry. `node <clone>/bin/addon-pair.mjs
// user unlock alice` from another folder created an empty database there and answered "The user does not
// exist"; now the data folder is DATA_DIR, --data-dir, or the installation's own, and a command that needs data
// never creates a database.
describe('the command line from a folder outside the clone', SEVERAL_PROCESSES, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-anywhere-'));
  const elsewhere = fs.mkdirSync(path.join(dir, 'elsewhere'), { recursive: true })!;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs `command args…` in the folder `elsewhere`, with only the given variables (and PATH). */
  const run = (command: string, args: string[], env: Record<string, string>, input?: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(command, args, {
        cwd: elsewhere,
        env: { PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, LOG_LEVEL: 'warn', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += String(d)));
      child.stderr.on('data', (d) => (stderr += String(d)));
      child.stdin.end(input ?? '');
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
  const cli = (args: string[], env: Record<string, string>, input?: string) =>
    run(process.execPath, [path.join(ROOT, 'bin/addon-pair.mjs'), ...args], env, input);

  it('refuses `user unlock` on a folder without a database, naming it, and creates nothing', async () => {
    const missing = path.join(dir, 'no-data');
    const r = await cli(['user', 'unlock', 'alice'], { DATA_DIR: missing });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `No database in ${missing}: start the server there once (npm start) or run \`addon-pair migrate\`, ` +
        'or name the folder the server uses with DATA_DIR or --data-dir.',
    );
    expect(fs.existsSync(missing)).toBe(false);
    // The same with --data-dir, relative to the working directory; and an empty folder stays empty.
    fs.mkdirSync(path.join(elsewhere, 'empty'));
    const relative = await cli(['user', 'passwd', 'alice', '--data-dir', 'empty'], {}, 'a-password\n');
    expect(relative.code).toBe(1);
    expect(relative.stderr).toContain(`No database in ${path.join(elsewhere, 'empty')}:`);
    expect(fs.readdirSync(path.join(elsewhere, 'empty'))).toEqual([]);
    expect(fs.readdirSync(elsewhere)).toEqual(['empty']);
  });

  it('runs the user and token commands on DATA_DIR, and through a linked `addon-pair` on the PATH', async () => {
    const data = migratedDataDir(path.join(dir, 'data'));
    const env = { DATA_DIR: data, ADMIN_PASSWORD: 'anywhere-admin', DEMO: '0' };
    const added = await cli(['user', 'add', 'alice', '--password', 'a-long-enough-secret'], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout.trim()).toBe('created user alice (groups: users)');
    const unlocked = await cli(['user', 'unlock', 'alice'], env);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stdout).toMatch(/alice/);
    // A symbolic link on the PATH, as `npm link` makes: the bin finds its installation from its own location.
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.symlinkSync(path.join(ROOT, 'bin/addon-pair.mjs'), path.join(dir, 'bin/addon-pair'));
    const token = await run('addon-pair', ['token', 'create', 'alice', '--data-dir', data, '--name', 'linked'], {});
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{44}$/);
    const help = await run('addon-pair', ['help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: addon-pair');
    // Nothing was written into the working directory.
    expect(fs.readdirSync(elsewhere).filter((n) => n !== 'empty')).toEqual([]);
  });
});
