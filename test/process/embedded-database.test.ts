import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir, runCli, startServerProcess, type ServerProcess, SEVERAL_PROCESSES } from '../helpers/server-process.ts';
import { COMMAND_START_PARAMS, EMBEDDED_START_PARAMS, openEmbeddedPglite } from '../../src/platform/db/embedded-pglite.ts';
import { migrationNames } from '../../src/platform/db/migration-source.ts';

describe('the embedded database in a data folder', SEVERAL_PROCESSES, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-data-'));
  let first: ServerProcess | undefined;
  afterAll(async () => {
    await first?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps data across a restart, and a second process on the same folder stops at once with a clear message', async () => {
    // A folder made before (the tests below make new ones): this test is about the second and later starts.
    const kept = migratedDataDir(path.join(dir, 'kept'));
    first = await startServerProcess({ DATA_DIR: kept, ADMIN_PASSWORD: 'pw1', DEMO: '0' });
    const auth = { Authorization: `Basic ${Buffer.from('admin:pw1').toString('base64')}` };
    const created = await fetch(`${first.url}/rest/api/2/group`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'survivors' }),
    });
    expect(created.status).toBe(201);

    const second = runCli(['serve'], { DATA_DIR: kept, PORT: '0' });
    const { code, output } = await second.done;
    expect(code).toBe(1);
    expect(output).toMatch(/in use by another addon-pair process/);

    expect(await first.stop()).toBe(0);
    first = await startServerProcess({ DATA_DIR: kept, ADMIN_PASSWORD: 'ignored-now', DEMO: '0' });
    const picker = await fetch(`${first.url}/rest/api/2/groups/picker?query=surv`, { headers: auth });
    expect(((await picker.json()) as { total: number }).total).toBe(1);
  }, 120_000);

  // A new folder's database is made in memory by initdb's child and written out as PGlite closes
  // (folder-on-close-fs.ts): the files must be those of a cleanly shut-down database, with PostgreSQL's modes.
  it('creates a new folder from memory: a cleanly shut-down database that the server then opens', async () => {
    const folder = path.join(dir, 'from-memory');
    expect((await runCli(['migrate'], { DATA_DIR: folder, ADMIN_PASSWORD: 'pw', DEMO: '0' }).done).code).toBe(0);
    // pg_control: the system identifier (8 bytes), two versions (4 + 4), then the state; 1 is "shut down".
    // `migrate` opened the new database and closed it again, so this also shows the second close was clean.
    expect(fs.readFileSync(path.join(folder, 'global/pg_control')).readUInt32LE(16)).toBe(1);
    expect(fs.statSync(path.join(folder, 'PG_VERSION')).mode & 0o777).toBe(0o640);
    expect(fs.statSync(path.join(folder, 'base')).mode & 0o777).toBe(0o750);
    expect(fs.readdirSync(folder).filter((n) => n.startsWith('.initdb-'))).toEqual([]);
    const server = await startServerProcess({ DATA_DIR: folder, ADMIN_PASSWORD: 'pw', DEMO: '0' });
    try {
      const me = await fetch(`${server.url}/rest/api/2/myself`, { headers: { Authorization: `Basic ${Buffer.from('admin:pw').toString('base64')}` } });
      expect(me.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  // The child that creates a new folder also applies the migrations (on the in-memory database, on V8's
  // baseline compiler), and the process that asked for the folder reports them as applied, once.
  it('migrates a new folder in the child that creates it, and the migrate command and the server name those migrations', async () => {
    const folder = path.join(dir, 'migrated-by-child');
    fs.mkdirSync(folder);
    expect((await runCli(['internal-init-data-dir', folder], {}).done).code).toBe(0);
    const embedded = await openEmbeddedPglite(folder, COMMAND_START_PARAMS);
    try {
      expect(embedded.migratedOnCreation).toEqual([]); // the folder existed
      const { rows } = await embedded.pglite.query<{ name: string }>('select name from knex_migrations order by id');
      expect(rows.map((r) => r.name)).toEqual(migrationNames());
    } finally {
      await embedded.pglite.close();
      embedded.release();
    }

    const fresh = path.join(dir, 'migrated-on-start');
    const migrate = await runCli(['migrate'], { DATA_DIR: fresh, ADMIN_PASSWORD: 'pw', DEMO: '0' }).done;
    expect(migrate.code).toBe(0);
    expect(migrate.output).toContain(`applied ${migrationNames().length} migrations:`);
    const again = await runCli(['migrate'], { DATA_DIR: fresh, ADMIN_PASSWORD: 'pw', DEMO: '0' }).done;
    expect(again.output).toContain('no pending migrations');

    const served = path.join(dir, 'migrated-for-server');
    const server = await startServerProcess({ DATA_DIR: served, ADMIN_PASSWORD: 'pw', DEMO: '0', LOG_LEVEL: 'info' });
    try {
      const logged = server.output().split('\n').find((l) => l.includes('"migrations applied"'));
      expect(logged && (JSON.parse(logged) as { migrations: string[] }).migrations).toEqual(migrationNames());
    } finally {
      await server.stop();
    }
  }, 180_000);

  // A user or token command opens the folder with a small shared memory (COMMAND_START_PARAMS: 1 MB of buffers).
  // A command that writes more than that in one transaction must still commit all of it: PostgreSQL then
  // writes dirty buffers out to the folder before the commit, through PGlite's file system.
  it('commits a transaction larger than the commands\' buffer pool, and the server reads all of it', async () => {
    // A migrated folder made before: the subject here is the command's small pool, not a new folder.
    const folder = migratedDataDir(path.join(dir, 'small-pool'));
    expect((await runCli(['migrate'], { DATA_DIR: folder, ADMIN_PASSWORD: 'pw', DEMO: '0' }).done).code).toBe(0);

    const command = await openEmbeddedPglite(folder, COMMAND_START_PARAMS);
    try {
      const shown = await command.pglite.query<{ b: string; c: string }>(
        "select current_setting('shared_buffers') as b, current_setting('max_connections') as c",
      );
      expect(shown.rows[0]).toEqual({ b: '1MB', c: '5' });
      await command.pglite.transaction(async (tx) => {
        await tx.exec('create table big_write (id int primary key, filler text not null)');
        // 4,000 rows of 2 kB: 8 MB, eight times the pool.
        await tx.exec("insert into big_write select g, repeat(md5(g::text), 64) from generate_series(1, 4000) g");
      });
    } finally {
      await command.pglite.close();
      command.release();
    }

    const server = await openEmbeddedPglite(folder, EMBEDDED_START_PARAMS);
    try {
      const read = await server.pglite.query<{ n: number; total: number }>(
        'select count(*)::int as n, sum(length(filler))::int as total from big_write',
      );
      expect(read.rows[0]).toEqual({ n: 4000, total: 4000 * 2048 });
      expect((await server.pglite.query<{ b: string }>("select current_setting('shared_buffers') as b")).rows[0]!.b).toBe('16MB');
    } finally {
      await server.pglite.close();
      server.release();
    }
  }, 120_000);
});
