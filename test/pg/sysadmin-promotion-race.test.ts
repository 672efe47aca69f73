import { describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { uniq, useTestApp } from '../helpers/test-app.ts';

// Real PostgreSQL (a pool of connections): an administrator sets the password of a user at the moment a system
// administrator promotes that user. The right is decided inside the password's transaction under a lock of the
// `system-administrators` row, so the request waits for the promotion and then refuses (issue 44, finding 3);
// without the lock it would read the membership from before the promotion and take the account over.
describe.skipIf(!process.env.TEST_DATABASE_URL)('role protection against a concurrent promotion (PostgreSQL)', () => {
  const t = useTestApp();
  const knex = (): Knex => t.services.db.knex;

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

  it('a password set that races with a promotion of its target answers 403', async () => {
    const admin = await t.createUser(uniq('race-admin-'), { admin: true });
    const target = await t.createUser(uniq('race-target-'));
    const before = await knex()('users').where({ name: target.name }).first('password_hash');
    // The promotion, as DirectoryService.addMember makes it, held open.
    const promotion = await knex().transaction();
    const [group] = await promotion('groups').where({ name_key: 'system-administrators' }).forNoKeyUpdate().select('id');
    const user = await promotion('users').where({ name: target.name }).first('id');
    await promotion('group_members').insert({ group_id: group.id, user_id: user.id });
    const attempt = t.http
      .put(`/rest/api/2/user/password?username=${target.name}`)
      .set('Authorization', admin.auth)
      .send({ password: 'taken-over-passphrase' })
      .then((r) => r.status);
    await waiters(1);
    await promotion.commit();
    expect(await attempt).toBe(403);
    expect(await knex()('users').where({ name: target.name }).first('password_hash')).toEqual(before);
  });

  it("a listing of the target's tokens that races with its promotion waits for it and answers 403", async () => {
    // Unlike the password, the listing locks no user row: only the group's lock makes it wait.
    const admin = await t.createUser(uniq('race-lister-'), { admin: true });
    const target = await t.createUser(uniq('race-listed-'));
    const promotion = await knex().transaction();
    const [group] = await promotion('groups').where({ name_key: 'system-administrators' }).forNoKeyUpdate().select('id');
    const user = await promotion('users').where({ name: target.name }).first('id');
    await promotion('group_members').insert({ group_id: group.id, user_id: user.id });
    const attempt = t.http.get(`/rest/pat/latest/admin/tokens?username=${target.name}`).set('Authorization', admin.auth).then((r) => r.status);
    await waiters(1);
    await promotion.commit();
    expect(await attempt).toBe(403);
  });

  it('an administrator adding itself while a system administrator removes another waits and is refused', async () => {
    const admin = await t.createUser(uniq('race-climber-'), { admin: true });
    const held = await knex().transaction();
    await held('groups').where({ name_key: 'system-administrators' }).forNoKeyUpdate().select('id');
    const attempt = t.http
      .post('/rest/api/2/group/user?groupname=system-administrators')
      .set('Authorization', admin.auth)
      .send({ name: admin.name })
      .then((r) => r.status);
    await waiters(1);
    await held.commit();
    expect(await attempt).toBe(403);
  });
});
