import fs from 'node:fs';
import nodeModule from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServerProcess, SEVERAL_PROCESSES } from '../helpers/server-process.ts';

describe('command line', SEVERAL_PROCESSES, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-cli-'));
  const env = { DATA_DIR: path.join(dir, 'data'), ADMIN_PASSWORD: 'cli-admin', DEMO: '0' };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('migrates, adds users, imports a file and creates tokens that the server then accepts', async () => {
    expect((await runCli(['migrate'], env).done).code).toBe(0);
    const add = await runCli(['user', 'add', 'carl', '--password', 'c:pw', '--admin', '--display-name', 'Carl'], env).done;
    expect(add.output).toContain('created user carl');
    const file = path.join(dir, 'import.json');
    fs.writeFileSync(file, JSON.stringify({ groups: [{ name: 'g1' }], users: [{ name: 'dora', password: 'dpw', groups: ['g1'] }] }));
    const imp = await runCli(['import', file], env).done;
    expect(imp.code).toBe(0);
    expect(imp.output).toMatch(/users: 1 created, 0 already there/);
    const tok = await runCli(['token', 'create', 'dora', '--name', 'boot', '--days', '3'], env).done;
    expect(tok.code).toBe(0);
    const token = tok.output.trim().split('\n').at(-1)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{44}$/);

    const forever = await runCli(['token', 'create', 'dora', '--days', '40000'], env).done;
    expect(forever.code).toBe(1);
    expect(forever.output).toMatch(/^validation errors \(expirationDuration: /);

    const bad = await runCli(['user', 'add', 'x:y', '--password', 'pw'], env).done;
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/colon/);
    const unknown = await runCli(['frobnicate'], env).done;
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/unknown command/);
    const badFile = await runCli(['import', path.join(dir, 'missing.json')], env).done;
    expect(badFile.output).toMatch(/Cannot read/);

    const server = await startServerProcess(env);
    try {
      const me = await fetch(`${server.url}/rest/api/2/myself`, { headers: { Authorization: `Bearer ${token}` } });
      expect(((await me.json()) as { name: string }).name).toBe('dora');
      const carl = await fetch(`${server.url}/rest/api/2/user?username=dora`, {
        headers: { Authorization: `Basic ${Buffer.from('carl:c:pw').toString('base64')}` },
      });
      expect(carl.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 180_000);

  // What a command loads, without timing anything: a module hook (node --import) records every module the
  // run resolves. `user add` must not build the application (Express, the app's routes, the other features):
  // loading it was most of the command's time (issue 14). `user delete` builds it on purpose (its directory
  // hooks), which also shows that the probe sees Express when it is loaded.
  it('adds a user without loading Express or the application; deletes one with every feature hook', async () => {
    const hooks = path.join(dir, 'record-hooks.mjs');
    fs.writeFileSync(
      hooks,
      "import fs from 'node:fs';\nlet out;\nexport function initialize(data) { out = data.out; }\n" +
        'export async function resolve(specifier, context, next) {\n  const r = await next(specifier, context);\n' +
        "  fs.appendFileSync(out, r.url + '\\n');\n  return r;\n}\n",
    );
    const probe = path.join(dir, 'record-modules.mjs');
    fs.writeFileSync(probe, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { out: process.env.MODULES_OUT } });\n`);
    const loaded = async (args: string[]) => {
      const out = path.join(dir, `modules-${args.slice(0, 2).join('-')}.txt`);
      const r = await runCli(args, { ...env, NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`, MODULES_OUT: out }).done;
      return { ...r, modules: fs.readFileSync(out, 'utf8').split('\n').filter(Boolean) };
    };

    const add = await loaded(['user', 'add', 'fay', '--password', 'fay-password']);
    expect(add.output).toContain('created user fay');
    expect(add.code).toBe(0);
    expect(add.modules.some((u) => /\/dist\/chunks\/directory\.commands-\w+\.mjs$/.test(u))).toBe(true);
    // knex, knex-pglite, lodash, pino and zod are compiled into the bundle (scripts/build.mjs): never a second copy.
    expect(add.modules.filter((u) => /\/node_modules\/(knex|knex-pglite|lodash|pino|zod)\//.test(u))).toEqual([]);
    const app = /\/node_modules\/(express|prom-client|passport-strategy|saxes)\/|\/chunks\/(admin\.commands|serve\.command)-/;
    expect(add.modules.filter((u) => app.test(u))).toEqual([]);
    // What no process of ours runs is left out of the bundle (scripts/build.mjs): knex's dialects but
    // PostgreSQL's, and zod's messages in languages other than English.
    const bundled = add.modules.filter((u) => u.includes('/dist/chunks/')).map((u) => fs.readFileSync(new URL(u), 'utf8')).join('\n');
    expect(bundled).toMatch(/\/\/ node_modules\/knex\/lib\/dialects\/postgres\/index\.js/);
    expect(bundled).not.toMatch(/\/\/ node_modules\/knex\/lib\/dialects\/(mssql|mysql|oracledb|sqlite3|better-sqlite3)\//);
    expect(bundled).toMatch(/\/\/ node_modules\/zod\/v4\/locales\/en\.js/);
    expect(bundled).not.toMatch(/\/\/ node_modules\/zod\/v4\/locales\/(de|fr|ja)\.js/);

    const del = await loaded(['user', 'delete', 'fay']);
    expect(del.output).toContain('deleted user fay');
    expect(del.modules.some((u) => u.includes('/node_modules/express/'))).toBe(true);
    expect(del.modules.some((u) => /\/chunks\/admin\.commands-/.test(u))).toBe(true);
  }, 180_000);

  // Only Node 22 has the compile cache (bin/addon-pair.mjs); CI runs Node 20, where this is skipped. The cache
  // goes to os.tmpdir(), which follows TMPDIR, so a private TMPDIR shows whether the command turned it on.
  it.skipIf(!('enableCompileCache' in nodeModule))('keeps the compiled bundle between runs on Node 22', async () => {
    const tmp = path.join(dir, 'tmp');
    fs.mkdirSync(tmp);
    expect((await runCli(['help'], { TMPDIR: tmp }).done).code).toBe(0);
    const cache = path.join(tmp, 'node-compile-cache');
    expect(fs.readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0);
  });

  it('stops with a one-line message naming a bad variable', async () => {
    const r = await runCli(['migrate'], { ...env, PORT: 'eighty' }).done;
    expect(r.code).toBe(1);
    expect(r.output.trim()).toBe('Invalid configuration: PORT: PORT must be a whole number');
  });

  // A user command on an existing folder starts opening the database before the configuration loads
  // (main.ts); a refused configuration must still leave the folder closed, unlocked and unchanged.
  it('closes and unlocks a database it opened early when the configuration is refused', async () => {
    expect(fs.existsSync(path.join(env.DATA_DIR, 'PG_VERSION'))).toBe(true);
    const r = await runCli(['user', 'add', 'early', '--password', 'early-pw'], { ...env, PORT: 'eighty' }).done;
    expect(r.code).toBe(1);
    expect(r.output.trim()).toBe('Invalid configuration: PORT: PORT must be a whole number');
    expect(fs.existsSync(path.join(env.DATA_DIR, 'addon-pair.lock'))).toBe(false);
    const add = await runCli(['user', 'add', 'early', '--password', 'early-pw'], env).done;
    expect(add.output.trim()).toBe('created user early (groups: users)');
  }, 60_000);
});
