import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeEntitiesXml } from '../helpers/wiki-export-builder.ts';
import { migratedDataDir, runCli, startServerProcess, type ServerProcess, SEVERAL_PROCESSES } from '../helpers/server-process.ts';

// Issue 14: with the embedded database, the command line's user and token commands reach a running server
// (over `addon-pair.sock` in the data folder), which runs them on its own services, so that their effect is
// visible at once; the commands that must open the database themselves still say that the server must stop.

const basic = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

/** One raw line to the command socket, as a confused or hostile local client would send it. */
function sendRaw(socket: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket, () => conn.write(bytes));
    let answer = '';
    conn.on('data', (d) => (answer += String(d)));
    conn.on('end', () => resolve(answer));
    conn.on('error', reject);
  });
}

describe('the command line beside a running embedded server', SEVERAL_PROCESSES, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-cli-srv-'));
  const env = { DATA_DIR: migratedDataDir(path.join(dir, 'data')), ADMIN_PASSWORD: 'cli-admin', DEMO: '0', MAX_AUTH_ATTEMPTS: '3' };
  const socket = path.join(env.DATA_DIR, 'addon-pair.sock');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const cli = async (...args: string[]) => (await runCli(args, env).done);
  const myself = (headers: Record<string, string>) => fetch(`${server!.url}/rest/api/2/myself`, { headers }).then((r) => r.status);

  it('runs user add, token create, user passwd, user unlock and user delete in the server, effective at once', async () => {
    server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });
    expect(fs.statSync(socket).mode & 0o777).toBe(0o600);

    expect(await cli('user', 'add', 'carl', '--password', 'carl-password', '--admin', '--display-name', 'Carl')).toEqual({
      code: 0,
      output: 'created user carl (groups: administrators, users)\n',
    });
    expect(await myself(basic('carl', 'carl-password'))).toBe(200);

    const token = await cli('token', 'create', 'carl', '--name', 'boot', '--days', '3', '--read-only');
    expect(token.code).toBe(0);
    expect(token.output).toMatch(/^[A-Za-z0-9_-]{44}\n$/);
    const bearer = { Authorization: `Bearer ${token.output.trim()}` };
    expect(await myself(bearer)).toBe(200);

    // Three wrong passwords lock carl (MAX_AUTH_ATTEMPTS=3); `user unlock` lets the right one in again.
    for (let i = 0; i < 3; i++) expect(await myself(basic('carl', 'wrong'))).toBe(401);
    expect(await myself(basic('carl', 'carl-password'))).not.toBe(200);
    expect(await cli('user', 'unlock', 'carl')).toEqual({ code: 0, output: 'carl is unlocked\n' });
    expect(await myself(basic('carl', 'carl-password'))).toBe(200);

    expect(await cli('user', 'passwd', 'carl', '--password', 'carl-new-password')).toEqual({ code: 0, output: 'password of carl changed\n' });
    expect(await myself(basic('carl', 'carl-password'))).toBe(401);
    expect(await myself(basic('carl', 'carl-new-password'))).toBe(200);

    expect(await cli('user', 'delete', 'carl')).toEqual({ code: 0, output: 'deleted user carl\n' });
    expect(await myself(basic('carl', 'carl-new-password'))).toBe(401);
    expect(await myself(bearer)).toBe(401);

    // The server logs who was changed by which command, never the password.
    expect(server.output()).toMatch(/"command":"user passwd","user":"carl","msg":"ran a command of the command line"/);
    expect(server.output()).not.toContain('carl-new-password');
  }, 180_000);

  it('answers a refused command with the same one line and exit 1 as the command line alone', async () => {
    await cli('user', 'add', 'dora', '--password', 'dora-password');
    expect(await cli('user', 'add', 'dora', '--password', 'other')).toEqual({
      code: 1,
      output: 'A user with that username already exists. (username)\n',
    });
    expect(await cli('user', 'add', 'x:y', '--password', 'pw')).toMatchObject({ code: 1, output: expect.stringMatching(/colon/) });
    // No --password and nothing on standard input: an empty password, refused by the server's own check.
    expect(await cli('user', 'passwd', 'dora')).toEqual({ code: 1, output: 'validation errors (password: The password is required.)\n' });
    expect(await cli('user', 'delete', 'nobody')).toEqual({ code: 1, output: 'The user does not exist.\n' });
    expect(await cli('token', 'create', 'nobody')).toEqual({ code: 1, output: 'The user does not exist.\n' });
    // The REST API's limit on a token's lifetime, whichever process runs the command.
    expect(await cli('token', 'create', 'dora', '--days', '40000')).toMatchObject({ code: 1, output: expect.stringMatching(/^validation errors \(expirationDuration: /) });
    expect(await myself(basic('dora', 'dora-password'))).toBe(200);
  }, 120_000);

  it('keeps the commands that open the database themselves out while it runs', async () => {
    for (const args of [['migrate'], ['import', path.join(dir, 'any.json')]]) {
      if (args[0] === 'import') fs.writeFileSync(args[1]!, '{}');
      const r = await cli(...args);
      expect(r.code).toBe(1);
      expect(r.output.trim()).toMatch(/^The data directory .* is in use by another addon-pair process \(pid \d+\): stop that server first/);
    }
  }, 120_000);

  it("runs an export's dry run in the server that holds the folder: the same report as the upload's, nothing written", async () => {
    server ??= await startServerProcess(env);
    // Named entities.xml, as the upload spools its body, so that both reports name the same source.
    const file = path.join(dir, 'entities.xml');
    writeEntitiesXml(file, {
      users: [{ name: 'dryrun-olivia' }],
      spaces: [{ id: 9, key: 'DRY', name: 'Dry', pages: [{ id: 900, title: 'P', body: '<p>p</p>', creator: 'dryrun-olivia', comments: [{ id: 901, body: '<p>c</p>' }] }] }],
    });
    const run = async (...args: string[]) => {
      const r = runCli(args, env);
      let stdout = '';
      r.child.stdout!.on('data', (d) => (stdout += String(d)));
      return { ...(await r.done), stdout };
    };
    const text = await run('import-from', 'wiki-export', file, '--space', 'DRY', '--dry-run');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('space DRY: would-import (dry run: counts of what would be written)');
    expect(text.stdout).toContain('  pages: 1 created, 0 updated, 0 unchanged');
    expect(text.stdout).toContain('dryrun-olivia');
    // Its progress (on standard error) says who runs it.
    expect(text.output).toMatch(/the addon-pair server \(pid \d+\) holds .*: it runs the dry run, and writes nothing/);
    expect(text.output).toMatch(/\n {2}reading entities\.xml: entities\.xml, [\d.]+ MB\n/);
    expect(text.stdout).not.toContain('reading entities.xml');

    // --json: the very report the server's upload answers for the same file and query.
    const json = await run('import-from', 'wiki-export', file, '--space', 'DRY', '--dry-run', '--json');
    expect(json.code).toBe(0);
    const upload = await fetch(`${server!.url}/rest/addon-pair/1/migration/wiki-export?space=DRY&dryRun=true`, {
      method: 'POST',
      headers: { ...basic('admin', 'cli-admin'), 'Content-Type': 'application/xml' },
      body: fs.readFileSync(file),
    });
    expect(upload.status).toBe(200);
    const cliReport = JSON.parse(json.stdout) as { dryRun: boolean; units: { outcome: string }[] };
    expect(cliReport).toEqual(await upload.json());
    expect(cliReport.dryRun).toBe(true);
    expect(cliReport.units.map((u) => u.outcome)).toEqual(['would-import']);

    // Nothing was written: no space, no page, no user; the server still holds its folder and answers.
    const admin = basic('admin', 'cli-admin');
    const spaces = (await fetch(`${server!.url}/rest/api/admin/space`, { headers: admin }).then((x) => x.json())) as { results: { key: string }[] };
    expect(spaces.results.map((s) => s.key)).not.toContain('DRY');
    expect((await fetch(`${server!.url}/rest/api/content/900`, { headers: admin })).status).toBe(404);
    expect((await fetch(`${server!.url}/rest/api/2/user?username=dryrun-olivia`, { headers: admin })).status).toBe(404);
    // The real import still needs the folder, which the server keeps.
    const real = await cli('import-from', 'wiki-export', file, '--space', 'DRY');
    expect(real.code).toBe(1);
    expect(real.output.trim()).toMatch(/^The data directory .* is in use by another addon-pair process \(pid \d+\): stop that server first/);

    // A file that is not an export: the server's one line, exit 1.
    const junk = path.join(dir, 'junk.xml');
    fs.writeFileSync(junk, '<?xml version="1.0"?><hibernate-generic></hibernate-generic>');
    const bad = await cli('import-from', 'wiki-export', junk, '--dry-run');
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('junk.xml holds no Space object: not a wiki space export');
    expect((await fetch(`${server!.url}/status`)).status).toBe(200);

    // Had a dry run written anything, the real import would find it unchanged: it creates all of it.
    const imported = await fetch(`${server!.url}/rest/addon-pair/1/migration/wiki-export?space=DRY`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/xml' },
      body: fs.readFileSync(file),
    });
    const after = (await imported.json()) as { units: { outcome: string; counts: Record<string, { created: number }> }[] };
    expect(after.units.map((u) => [u.outcome, u.counts.users?.created, u.counts.pages?.created, u.counts.comments?.created])).toEqual([['imported', 1, 1, 1]]);
  }, 180_000);

  it('answers malformed, unknown and oversized input on the socket with an error and keeps serving', async () => {
    expect(JSON.parse(await sendRaw(socket, 'not json\n'))).toEqual({ ok: false, error: 'The command is not JSON.' });
    expect(JSON.parse(await sendRaw(socket, '{"command":"user add","name":"eve"}\n'))).toMatchObject({ ok: false, error: expect.stringMatching(/did not understand/) });
    expect(JSON.parse(await sendRaw(socket, '{"command":"db drop"}\n'))).toMatchObject({ ok: false });
    expect(JSON.parse(await sendRaw(socket, '{"command":"user unlock","name":"dora","extra":1}\n'))).toMatchObject({ ok: false });
    expect(JSON.parse(await sendRaw(socket, 'x'.repeat(40_000)))).toEqual({ ok: false, error: 'The command is too large.' });
    expect(await cli('user', 'unlock', 'dora')).toEqual({ code: 0, output: 'dora is unlocked\n' });
  }, 60_000);

  // Only the folder's owner may hand the server a command: another local user (here `nobody`, which needs a
  // root test run to become) can read the lock but not use the socket, and is told why.
  it.runIf(process.getuid?.() === 0)('refuses the socket to another local user, with a message that says so', async () => {
    fs.chmodSync(dir, 0o755);
    const child = spawn(process.execPath, ['bin/addon-pair.mjs', 'user', 'add', 'mallory', '--password', 'mallory-password', '--admin'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', LOG_LEVEL: 'warn', DATA_DIR: env.DATA_DIR },
      uid: 65534,
      gid: 65534,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toMatch(/^The data directory .* is in use by another addon-pair process \(pid \d+\), whose command socket belongs to another user \(EACCES\)/);
    expect(await myself(basic('mallory', 'mallory-password'))).toBe(401);
  }, 60_000);

  it('removes its socket when it stops; after a crash the command line opens the folder itself and the next server listens again', async () => {
    // The crash first, of the server the tests above used: a fresh one started only to be killed would add a
    // start (seconds of CPU) and prove nothing more. The clean stop is that of the next server, at the end.
    server ??= await startServerProcess(env);
    const crashed = server;
    server = undefined;
    crashed.child.kill('SIGKILL');
    await new Promise((r) => crashed.child.once('exit', r));
    expect(fs.existsSync(socket)).toBe(true);
    // The lock names a dead process: the command opens the database itself, as with no server.
    expect(await cli('user', 'add', 'fred', '--password', 'fred-password')).toEqual({ code: 0, output: 'created user fred (groups: users)\n' });

    server = await startServerProcess(env);
    expect(await cli('user', 'add', 'gina', '--password', 'gina-password')).toEqual({ code: 0, output: 'created user gina (groups: users)\n' });
    expect(await myself(basic('fred', 'fred-password'))).toBe(200);
    expect(await myself(basic('gina', 'gina-password'))).toBe(200);

    // A client that connected and said nothing does not hold the stop up: it is dropped.
    const idle = net.connect(socket);
    await new Promise((r) => idle.once('connect', r));
    const dropped = new Promise((r) => idle.once('close', r));
    expect(await server.stop()).toBe(0);
    await dropped;
    server = undefined;
    expect(fs.existsSync(socket)).toBe(false);
  }, 180_000);
});
