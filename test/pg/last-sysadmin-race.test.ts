import { describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { useTestApp } from '../helpers/test-app.ts';

// Real PostgreSQL (a pool of connections): two administrators deactivate the only two active system
// administrators at the same moment. Each decides under the lock of the group's membership rows and reads who is
// active after it got the lock, so exactly one deactivation passes and the server keeps a system administrator
// who can log in (issue 29).
describe.skipIf(!process.env.TEST_DATABASE_URL)('the last active system administrator (PostgreSQL)', () => {
  const t = useTestApp();
  const knex = (): Knex => t.services.db.knex;

  /** Resolves once `n` backends wait for a lock (polled). */
  async function waiters(n: number) {
    for (const until = Date.now() + 15_000; Date.now() < until; ) {
      const found = (await knex().raw(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0`,
      )) as { rows: { n: number }[] };
      if (found.rows[0]!.n >= n) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`fewer than ${n} requests came to wait for the lock`);
  }

  it('lets exactly one of two concurrent deactivations through', async () => {
    const second = await t.createUser('second-sysadmin', { sysadmin: true });
    // Hold the membership rows, so both requests are in their transactions, waiting, before either decides.
    const blocker = await knex().transaction();
    await blocker.raw(
      "select 1 from group_members gm join groups g on g.id = gm.group_id where g.name_key = 'system-administrators' for update of gm",
    );
    const deactivate = (name: string, auth: string) =>
      t.http.put(`/rest/api/2/user?username=${name}`).set('Authorization', auth).send({ active: false }).then((r) => r.status);
    const both = Promise.all([deactivate('admin', second.auth), deactivate(second.name, t.adminAuth)]);
    await waiters(2);
    await blocker.rollback();
    const statuses = await both;
    expect([...statuses].sort()).toEqual([200, 400]);
    const active = await knex()('users as u')
      .join('group_members as gm', 'gm.user_id', 'u.id')
      .join('groups as g', 'g.id', 'gm.group_id')
      .where({ 'g.name_key': 'system-administrators', 'u.active': true })
      .count<{ n: number | string }[]>({ n: '*' });
    expect(Number(active[0]!.n)).toBe(1);
  });
});
