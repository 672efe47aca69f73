import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniq, useTestApp, type TestUser } from '../helpers/test-app.ts';
import { createField, FE, grant, paths } from '../helpers/tracker-fixtures.ts';

// Real PostgreSQL (a pool of connections): the only-administrators-may-delete rule is decided inside each
// delete's transaction, under a lock that a settings change waits for. So once `PUT admin/settings`
// forbidding deletes has answered, no delete by a non-administrator can still commit.
describe.skipIf(!process.env.TEST_DATABASE_URL)('a settings change racing deletes (PostgreSQL)', () => {
  const t = useTestApp();
  let editor: TestUser;
  beforeAll(async () => {
    editor = await t.createUser(uniq('race-editor-'));
    // Each delete holds its transaction open a little after it decided (a state no endpoint can make): without
    // the lock, a delete that read "allowed" would then commit after the change that forbids it had answered.
    await t.services.db.knex.raw(`create function race_slow_delete() returns trigger language plpgsql as
      $$ begin perform pg_sleep(0.05); return old; end $$`);
    await t.services.db.knex.raw('create trigger race_slow_delete before delete on field_options for each row execute function race_slow_delete()');
  });
  afterAll(async () => {
    await t.http.put(`${FE}/admin/settings`).set('Authorization', t.adminAuth).send({ onlyAdminsMayDeleteOptions: false });
  });

  // Counted on a connection of its own, taken before the race: a pooled query would wait behind the deletes
  // for a connection, and so count only after they had committed.
  type Conn = { query(sql: string, values: unknown[]): Promise<{ rows: { n: string | number }[] }> };
  const pool = () => t.services.db.knex.client as { acquireConnection(): Promise<Conn>; releaseConnection(c: Conn): Promise<void> };
  let counter: Conn;
  const count = async (contextId: number) =>
    Number((await counter.query('select count(*) as n from field_options where context_id = $1', [contextId])).rows[0]!.n);

  it('no delete commits after the change that forbids it has answered', async () => {
    counter = await pool().acquireConnection();
    try {
      await rounds();
    } finally {
      await pool().releaseConnection(counter);
    }
  }, 180_000);

  async function rounds() {
    for (let round = 0; round < 3; round++) {
      await t.http.put(`${FE}/admin/settings`).set('Authorization', t.adminAuth).send({ onlyAdminsMayDeleteOptions: false }).expect(200);
      const f = await createField(t);
      await grant(t, f.id, { user: editor.name });
      const p = paths(f.id, f.defaultContextId);
      // One batch, not fifty requests: the race is in the deletes, not in how the options came to be.
      const created = await t.http
        .post(`${p.options}/batch`)
        .set('Authorization', editor.auth)
        .send({ create: Array.from({ length: 50 }, (_, i) => ({ optionvalue: `race-${round}-${i}` })) })
        .expect(200);
      const options = created.body.options as { id: number }[];
      expect(options).toHaveLength(50);

      const deletes = options.map((o) => t.http.delete(p.option(o.id)).set('Authorization', editor.auth).then((r) => r));
      // The change lands in the middle of the deletes.
      await new Promise((r) => setTimeout(r, 5 + round * 10));
      await t.http.put(`${FE}/admin/settings`).set('Authorization', t.adminAuth).send({ onlyAdminsMayDeleteOptions: true }).expect(200);
      const leftWhenAnswered = await count(f.defaultContextId);
      const answers = await Promise.all(deletes);

      expect(await count(f.defaultContextId)).toBe(leftWhenAnswered);
      for (const a of answers) {
        expect([200, 403]).toContain(a.status);
        if (a.status === 403) expect(a.body).toMatchObject({ statusCode: 403, subCode: 403003 });
      }
      const deleted = answers.filter((a) => a.status === 200).length;
      expect(deleted).toBe(50 - leftWhenAnswered);
    }
  }
});
