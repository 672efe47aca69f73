import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PgChangeFeed, type Announcement, type FeedObserver } from '../../src/platform/events/change-feed.ts';
import { createLogger } from '../../src/platform/log/logger.ts';
import { createEmptyPgDatabase } from '../helpers/test-db.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

// The PostgreSQL change feed from TypeScript sources: its listener runs in a worker thread (started from the
// inline source) that raises counters shared with the main thread.
describe.skipIf(!onPostgres)('PgChangeFeed', () => {
  let db: { url: string; drop(): Promise<void> };
  let a: PgChangeFeed;
  let b: PgChangeFeed;
  beforeAll(async () => {
    db = await createEmptyPgDatabase('feed');
    a = new PgChangeFeed(db.url);
    b = new PgChangeFeed(db.url);
    await until(() => a.live && b.live);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.drop();
  });

  it("has moved the other node's counter of the topic, and no other, when publish returns", async () => {
    const wiki = b.counter(['wiki']);
    const tracker = b.counter(['tracker']);
    const own = a.counter(['wiki']);
    const [w, t, o] = [wiki(), tracker(), own()];
    const acks: boolean[] = [];
    const observer: FeedObserver = { sent: () => undefined, received: () => undefined, acknowledged: (_s, complete) => acks.push(complete) };
    a.observer = observer;
    await a.publish('wiki');
    expect(wiki()).not.toBe(w);
    expect(tracker()).toBe(t);
    expect(own()).not.toBe(o);
    expect(acks).toEqual([true]);
  });

  it('runs listeners on the main thread of the other node', async () => {
    let heard = 0;
    const off = b.on('directory', () => heard++);
    await a.publish('directory');
    await until(() => heard === 1);
    off();
  });

  it('acknowledges while the main thread is blocked', async () => {
    const read = b.counter(['tracker']);
    const before = read();
    // Block this thread (both feeds' main thread) right after the notification is sent: the workers still
    // raise the counter and acknowledge, so it has moved when the thread is free again.
    const published = a.publish('tracker');
    const spinUntil = Date.now() + 1000;
    while (Date.now() < spinUntil) {
      /* spin */
    }
    expect(read()).not.toBe(before);
    await published;
  });

  it("runs one statement at a time on the listener's connection: publishes and acknowledgements crossing raise no warning", async () => {
    // Each node acknowledges the other's notifications while its own publishes run their statements; a second
    // statement sent to a busy pg connection makes pg warn (it stops queueing them in pg 9).
    const warnings: string[] = [];
    const log = createLogger('warn', { write: (line: string) => void warnings.push(line) });
    const c = new PgChangeFeed(db.url, log);
    const d = new PgChangeFeed(db.url, log);
    try {
      await until(() => c.live && d.live);
      await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? c : d).publish(i % 3 ? 'wiki' : 'tracker')));
      // A thread's messages arrive in order: a warning it raised is in before the answer to a later publish.
      await c.publish('wiki');
      await d.publish('wiki');
      expect(warnings).toEqual([]);
    } finally {
      await Promise.all([c.close(), d.close()]);
    }
  });

  describe('a change announced inside the write’s own transaction (announceWithin)', () => {
    /** The announcement as a write sends it, with the listening nodes counted (`n`). */
    const ANNOUNCE = 'select pg_notify($1, $2), (select count(*)::int from pg_stat_activity where application_name = $3 and datname = current_database()) as n';
    const valuesOf = (a: Announcement) => [a.channel, a.payload, a.listener];
    /** Sends the announcement in a transaction of its own that commits or rolls back; answers the listening nodes. */
    async function inTransaction(a: Announcement, commit: boolean, url = db.url): Promise<number> {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query('begin');
        const { rows } = await c.query(ANNOUNCE, valuesOf(a));
        await c.query(commit ? 'commit' : 'rollback');
        return Number(rows[0].n);
      } finally {
        await c.end();
      }
    }

    it('reaches the other node at the commit, counts it among the listeners, and waits for its acknowledgement', async () => {
      const read = b.counter(['wiki']);
      const own = a.counter(['wiki']);
      const [before, ownBefore] = [read(), own()];
      const acks: boolean[] = [];
      a.observer = { sent: () => undefined, received: () => undefined, acknowledged: (_s, complete) => acks.push(complete) };
      const announcement = a.announceWithin('wiki');
      expect(announcement).toBeDefined();
      const listeners = await inTransaction(announcement!, true);
      expect(listeners).toBe(2);
      // This node's counter moves once the write has committed, with `delivered`, not before.
      expect(own()).toBe(ownBefore);
      // The other node acknowledges before this one asks for it (the listener thread keeps early
      // acknowledgements): still complete, not a 2 s timeout.
      await until(() => read() !== before);
      await new Promise((r) => setTimeout(r, 200));
      await announcement!.delivered(listeners);
      expect(own()).not.toBe(ownBefore);
      expect(read()).not.toBe(before);
      expect(acks).toEqual([true]);
      a.observer = undefined;
    });

    it('is dropped with a rollback: the other node hears nothing', async () => {
      let heard = 0;
      const off = b.on('directory', () => heard++);
      try {
        await inTransaction(a.announceWithin('directory')!, false);
        // A later change on another topic arrives: had the rolled-back one been sent, it would have come first.
        await a.publish('tracker');
        await new Promise((r) => setTimeout(r, 100));
        expect(heard).toBe(0);
      } finally {
        off();
      }
    });

    it('alone on the database, answers at the commit without waiting for any acknowledgement', async () => {
      const solo = await createEmptyPgDatabase('feedsolo');
      const c = new PgChangeFeed(solo.url);
      try {
        await until(() => c.live);
        const acks: number[] = [];
        c.observer = { sent: () => undefined, received: () => undefined, acknowledged: (seconds) => acks.push(seconds) };
        const announcement = c.announceWithin('wiki')!;
        const listeners = await inTransaction(announcement, true, solo.url);
        expect(listeners).toBe(1);
        await announcement.delivered(listeners);
        expect(acks).toEqual([0]);
      } finally {
        await c.close();
        await solo.drop();
      }
    });
  });

  it('goes down and invalidates everything when its connection is lost, and comes back', async () => {
    const read = b.counter(['wiki']);
    const before = read();
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'addon-pair-change-listener' and datname = current_database()`,
    );
    await c.end();
    await until(() => !b.live);
    expect(read()).not.toBe(before);
    await until(() => a.live && b.live);
    const afterReconnect = read();
    await a.publish('wiki');
    expect(read()).not.toBe(afterReconnect);
  }, 20_000);
});
