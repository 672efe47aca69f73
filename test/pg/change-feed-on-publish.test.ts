import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PgChangeFeed } from '../../src/platform/events/change-feed.ts';
import { createTestDb } from '../helpers/test-db.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** The command line's change feed (`listen: 'on-publish'`): no connection of its own until it announces a change. */
describe.skipIf(!onPostgres)('change feed of a command-line run (PostgreSQL)', async () => {
  const { db, url } = onPostgres ? await createTestDb('pg') : { db: undefined, url: undefined };
  const feeds: PgChangeFeed[] = [];
  afterAll(async () => {
    for (const f of feeds) await f.close();
    await db?.close();
  });

  const listeners = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where application_name = 'addon-pair-change-listener' and datname = current_database()",
      );
      return rows[0]!.n;
    } finally {
      await c.end();
    }
  };

  it('opens its listener only to publish, and then waits for the running nodes like a server does', async () => {
    const server = new PgChangeFeed(url!);
    feeds.push(server);
    await expect.poll(() => server.live, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => db!.changes.live, { timeout: 10_000 }).toBe(true);
    const before = await listeners(); // the server's and the test database's own
    const cli = new PgChangeFeed(url!, undefined, { listen: 'on-publish' });
    feeds.push(cli);
    await new Promise((r) => setTimeout(r, 300));
    expect(cli.live).toBe(false);
    expect(await listeners()).toBe(before);

    let cleared = false;
    server.on('directory', () => (cleared = true));
    const waits: boolean[] = [];
    cli.observer = { sent: () => undefined, received: () => undefined, acknowledged: (_s, complete) => void waits.push(complete) };
    await cli.publish('directory');
    // Answered after the server cleared its caches and acknowledged (not a fire-and-forget NOTIFY).
    expect(cleared).toBe(true);
    expect(waits).toEqual([true]);
    expect(cli.live).toBe(true);
    expect(await listeners()).toBe(before + 1);
  });
});
