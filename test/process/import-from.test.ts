// `addon-pair import-from` as a real process on an embedded data folder: usage mistakes answer exit 2, a space
// export is imported (dry run first, then for real, then a re-run that changes nothing) with progress on standard
// error and the report on standard output (text or --json), bad input answers one line and writes nothing, a
// failed space answers exit 1, and the folder is refused while a server runs on it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHEAP_HASHES, migratedDataDir, startServerProcess, SEVERAL_PROCESSES, type ServerProcess } from '../helpers/server-process.ts';
import { writeExportZip, type ExportDescription } from '../helpers/wiki-export-builder.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs the command line; standard output and standard error apart (the report and the progress). */
function cli(args: string[], env: Record<string, string>, stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/addon-pair.mjs', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const desc: ExportDescription = {
  users: [{ name: 'cli-frank', displayName: 'Frank' }],
  spaces: [
    {
      id: 31,
      key: 'CLI',
      name: 'From the command line',
      pages: [{ id: 6101, title: 'Home', body: '<p>home</p>', creator: 'cli-frank', children: [{ id: 6102, title: 'Child', body: '<p>child</p>' }] }],
    },
    { id: 32, key: 'BROKEN', name: 'Broken', pages: [{ id: 6201, title: 'Unclosed', body: '<p>never closed' }] },
  ],
};

describe('import-from (command line)', SEVERAL_PROCESSES, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-import-from-'));
  const env = { DATA_DIR: migratedDataDir(path.join(dir, 'data')), ADMIN_PASSWORD: 'cli-admin', DEMO: '0' };
  const zip = path.join(dir, 'space-export.zip');
  writeExportZip(zip, desc);
  // A demo server on a folder of its own: the live source of the imports, and the server that holds its folder
  // when a command is refused. Started by the first test that needs it, stopped at the end.
  const sourceDir = path.join(dir, 'source');
  let source: ServerProcess | undefined;
  const liveSource = async () => (source ??= await startServerProcess({ ...CHEAP_HASHES, DATA_DIR: migratedDataDir(sourceDir), DEMO: '1' }));
  afterAll(async () => {
    await source?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers usage mistakes with exit 2 and the usage, before opening anything', async () => {
    for (const args of [
      ['import-from'],
      ['import-from', 'ftp', 'x'],
      ['import-from', 'wiki', 'https://wiki.example', '--token', 't'],
      ['import-from', 'wiki-export', zip, '--token', 't'],
      ['import-from', 'tracker', 'https://jira.example'],
      ['import-from', 'tracker', 'not-a-url', '--token', 't'],
      ['import-from', 'wiki-export', zip, '--bogus'],
    ]) {
      const r = await cli(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain('Usage:');
      expect(r.stdout).toBe('');
    }
  }, 120_000);

  it('imports a space export: dry run, import with --json, re-run unchanged; a broken space fails with exit 1', async () => {
    const dry = await cli(['import-from', 'wiki-export', zip, '--space', 'CLI', '--dry-run'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^import-from export .*\(dry run: nothing was written\)\nspace CLI: would-import/);
    expect(dry.stdout).toMatch(/pages: 2 created, 0 updated, 0 unchanged/);
    expect(dry.stderr).toMatch(/space CLI/);

    const real = await cli(['import-from', 'wiki-export', zip, '--space', 'CLI', '--json'], env);
    expect(real.code, real.stderr).toBe(0);
    const report = JSON.parse(real.stdout) as { dryRun: boolean; units: { name: string; outcome: string }[]; usersWithoutPassword: string[] };
    expect(report).toMatchObject({ dryRun: false, units: [{ name: 'CLI', outcome: 'imported' }] });
    expect(report.usersWithoutPassword).toContain('cli-frank');

    const again = await cli(['import-from', 'wiki-export', zip], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/space CLI: unchanged/);
    expect(again.stdout).toMatch(/space BROKEN: failed: page 6201 "Unclosed": /);
    expect(again.stdout).toMatch(/total: (1 unchanged, 1 failed|1 failed, 1 unchanged)\n$/);
  }, 240_000);

  it('answers bad input with one line and exit 1: a missing file, a truncated zip, an unreachable source', async () => {
    const missing = await cli(['import-from', 'wiki-export', path.join(dir, 'nope.zip')], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^Cannot read the export file .*nope\.zip \(ENOENT\)/);
    const truncated = path.join(dir, 'truncated.zip');
    fs.writeFileSync(truncated, fs.readFileSync(zip).subarray(0, 300));
    const bad = await cli(['import-from', 'wiki-export', truncated], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stdout).toBe('');
    const unreachable = await cli(['import-from', 'tracker', 'http://127.0.0.1:9/', '--token', 'secret-token-123'], env);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).not.toContain('secret-token-123');
  }, 240_000);

  it('imports from a live wiki (--user, password on standard input) and a live tracker (token from the environment) of our own', async () => {
    const source = await liveSource();
    const target = { ...env, DATA_DIR: migratedDataDir(path.join(dir, 'live-target')) };
    const wiki = await cli(['import-from', 'wiki', source.url, '--space', 'DEMO', '--user', 'alice', '--json'], target, 'alice\n');
    expect(wiki.code, wiki.stderr).toBe(0);
    const wikiReport = JSON.parse(wiki.stdout) as { source: string; units: { name: string; outcome: string; counts: Record<string, { created: number }> }[] };
    expect(wikiReport.units).toEqual([expect.objectContaining({ name: 'DEMO', outcome: 'imported' })]);
    expect(wikiReport.units[0]!.counts.pages!.created).toBeGreaterThan(0);
    expect(wiki.stdout + wiki.stderr).not.toContain('alice\n');

    const pat = await fetch(`${source.url}/rest/pat/latest/tokens`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'migration', expirationDuration: 1 }),
    });
    const token = ((await pat.json()) as { rawToken: string }).rawToken;
    // The importing user needs the field editor's grant on what it imports, at the source.
    const granted = await fetch(`${source.url}/rest/jiracustomfieldeditorplugin/1/admin/customfields/10000`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: 'admin', action: 'GRANT', type: 'GLOBAL' }),
    });
    expect(granted.status).toBe(200);
    const tracker = await cli(['import-from', 'tracker', source.url, '--field', '10000', '--dry-run'], { ...target, ADDON_PAIR_SOURCE_TOKEN: token });
    expect(tracker.code, tracker.stdout + tracker.stderr).toBe(0);
    expect(tracker.stdout).toMatch(/^field .*: would-import/m);
    expect(tracker.stdout + tracker.stderr).not.toContain(token);

    const again = await cli(['import-from', 'wiki', source.url, '--space', 'DEMO', '--user', 'alice'], target, 'alice\n');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/space DEMO: unchanged/);
  }, 300_000);

  it('refuses the folder while a server runs on it', async () => {
    await liveSource();
    const r = await cli(['import-from', 'wiki-export', zip, '--space', 'CLI'], { ...env, DATA_DIR: sourceDir });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^The data directory .* is in use by another addon-pair process \(pid \d+\): stop that server first/);
  }, 180_000);
});
