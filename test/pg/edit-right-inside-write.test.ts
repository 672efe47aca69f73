import { beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import type { Test } from 'supertest';
import { uniq, useTestApp, type TestUser } from '../helpers/test-app.ts';
import { FE, addOptions, createField, grant, paths, type TestField } from '../helpers/tracker-fixtures.ts';

const NO_GRANT = { statusCode: 403, subCode: 403001, message: 'FieldPermission Denied - you do not have sufficient rights for this operation.' };

// Real PostgreSQL (a pool of connections): an option, child-option or default write decides the caller's
// right inside its own transaction, after it took the list lock, with the grant and membership rows it
// relies on taken FOR SHARE. So a revocation that answered while the write waited for a busy list is seen
// (403, nothing written), and a revocation that comes after the decision waits until the write has committed.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the edit right is decided inside the write (PostgreSQL)', () => {
  const t = useTestApp();
  const knex = (): Knex => t.services.db.knex;
  let field: TestField; // a cascading select: top-level options, child options and a default
  let parent: number;

  beforeAll(async () => {
    field = await createField(t, { type: 'cascadingselect' });
    // An editor of its own writes the lists once, so that their lock rows exist for the blockers below.
    const seeder = await t.createUser(uniq('seeder-'));
    await grant(t, field.id, { user: seeder.name });
    const p = paths(field.id, 'default');
    parent = (await addOptions(t, seeder.auth, p.options, ['P', 'Q', 'R']))[0]!.id;
    await addOptions(t, seeder.auth, p.children(parent), ['P1', 'P2']);
  });

  /** A transaction of its own, on a pooled connection of its own, with its backend's pid. */
  async function blocker(): Promise<{ trx: Knex.Transaction; pid: number }> {
    const trx = await knex().transaction();
    const pid = Number(((await trx.raw('select pg_backend_pid() as pid')) as { rows: { pid: number }[] }).rows[0]!.pid);
    return { trx, pid };
  }

  /** Holds the lock row of one list (parent key 0: the top-level list), as a concurrent writer of it would. */
  async function holdList(parentKey: number) {
    const b = await blocker();
    const held = (await b.trx.raw('update field_option_lists set version = version where context_id = ? and parent_key = ?', [
      field.defaultContextId,
      parentKey,
    ])) as { rowCount: number };
    expect(held.rowCount).toBe(1);
    return b;
  }

  /** Resolves once some backend waits for a lock that `accept` approves of (polled: no fixed sleep decides). */
  async function waitForWaiter(accept: string, bindings: number[]) {
    for (const until = Date.now() + 15_000; Date.now() < until; ) {
      const found = (await knex().raw(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0 and ${accept}`,
        bindings,
      )) as { rows: { n: number }[] };
      if (found.rows[0]!.n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no request came to wait for the lock');
  }
  const waitBlockedBy = (pid: number) => waitForWaiter('? = any(pg_blocking_pids(pid))', [pid]);
  /** A waiter that the blocker does not block: a request waiting for another request. */
  const waitBlockedButNotBy = (pid: number) => waitForWaiter('not (? = any(pg_blocking_pids(pid)))', [pid]);

  /** Starts the request now (supertest sends on `then`) and answers its settled response. */
  const start = (req: Test) => req.then((r) => r);

  /** An editor whose right comes from a global grant to itself (`revoke`: A4 PATCH REVOKE) or to a group it leaves. */
  async function editor(via: 'user' | 'group'): Promise<{ user: TestUser; revoke: () => Promise<void> }> {
    if (via === 'user') {
      const user = await t.createUser(uniq('editor-'));
      await grant(t, field.id, { user: user.name });
      const revoke = async () => {
        const res = await t.http
          .patch(`${FE}/admin/customfields/${field.id}`)
          .set('Authorization', t.adminAuth)
          .send({ user: user.name, action: 'REVOKE', type: 'GLOBAL' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      };
      return { user, revoke };
    }
    const group = uniq('keepers-');
    const user = await t.createUser(uniq('member-'), { groups: [group] });
    await grant(t, field.id, { group });
    const revoke = async () => {
      const res = await t.http.delete(`/rest/api/2/group/user?groupname=${group}&username=${user.name}`).set('Authorization', t.adminAuth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    return { user, revoke };
  }

  const p = () => paths(field.id, 'default');
  const rows = async (parentId: number | null) =>
    (await knex()('field_options')
      .where('context_id', field.defaultContextId)
      .andWhereRaw('coalesce(parent_id, 0) = ?', [parentId ?? 0])
      .orderBy([{ column: 'position' }, { column: 'id' }])
      .select('id', 'value', 'position', 'disabled')) as { id: number; value: string; position: string; disabled: boolean }[];
  const defaultIds = async () => (await knex()('field_default_options').where('context_id', field.defaultContextId).orderBy('position').pluck('option_id')) as number[];
  const state = async () => ({ top: await rows(null), children: await rows(parent), defaults: await defaultIds() });

  /**
   * The race of issue 25: a writer holds the list's lock row, the editor's write waits for it, the right is
   * revoked (answered at once: the revocation does not wait for the list), the blocker commits. The write must
   * then answer 403001 and change nothing.
   */
  async function raceRevocation(via: 'user' | 'group', parentKey: number, write: (auth: string) => Test) {
    const { user, revoke } = await editor(via);
    const before = await state();
    const b = await holdList(parentKey);
    let pending: Promise<{ status: number; body: unknown }> | undefined;
    try {
      pending = start(write(user.auth));
      await waitBlockedBy(b.pid);
      await revoke();
    } finally {
      await b.trx.commit();
    }
    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body).toEqual(NO_GRANT);
    expect(await state()).toEqual(before);
  }

  it('a create waiting for its list answers 403001 once the grant was revoked meanwhile (A4 REVOKE), and writes nothing', async () => {
    await raceRevocation('user', 0, (auth) => t.http.post(p().options).set('Authorization', auth).send({ optionvalue: uniq('late-') }));
  });

  it('the same for a rename', async () => {
    const last = (await rows(null)).at(-1)!.id;
    await raceRevocation('user', 0, (auth) => t.http.put(p().option(last)).set('Authorization', auth).send({ optionvalue: uniq('renamed-') }));
  });

  it('the same for a sort', async () => {
    await raceRevocation('group', 0, (auth) => t.http.post(p().sort).set('Authorization', auth).send({ locale: 'en', order: 'DESCENDING' }));
  });

  it('the same for a batch', async () => {
    await raceRevocation('user', 0, (auth) => t.http.post(`${p().options}/batch`).set('Authorization', auth).send({ create: [{ optionvalue: uniq('batched-') }] }));
  });

  it('the same for a sync (its tag is checked after the right: 403001, not 412)', async () => {
    await raceRevocation('group', 0, (auth) =>
      t.http.post(`${p().options}/sync?dryRun=false`).set('Authorization', auth).set('If-Match', '"stale"').set('Content-Type', 'text/csv').send('path\r\nSynced\r\n'),
    );
  });

  it('the same for a create by a member removed from the granted group meanwhile', async () => {
    await raceRevocation('group', 0, (auth) => t.http.post(p().options).set('Authorization', auth).send({ optionvalue: uniq('late-') }));
  });

  it('the same for setting a default value', async () => {
    const first = (await rows(null))[0]!.id;
    await raceRevocation('user', 0, (auth) => t.http.put(p().default).set('Authorization', auth).send({ optionId: first }));
  });

  it('the same for a child option', async () => {
    await raceRevocation('user', parent, (auth) => t.http.post(p().children(parent)).set('Authorization', auth).send({ optionvalue: uniq('kid-') }));
  });

  it('the same for a move', async () => {
    const last = (await rows(null)).at(-1)!.id;
    await raceRevocation('user', 0, (auth) => t.http.post(p().move(last)).set('Authorization', auth).send({ position: 'First' }));
  });

  it('the same for a delete', async () => {
    const last = (await rows(null)).at(-1)!.id;
    await raceRevocation('user', 0, (auth) => t.http.delete(p().option(last)).set('Authorization', auth));
  });

  it('the same for a delete by a member removed from the granted group meanwhile', async () => {
    const last = (await rows(null)).at(-1)!.id;
    await raceRevocation('group', 0, (auth) => t.http.delete(p().option(last)).set('Authorization', auth));
  });

  /**
   * The other order: the write has decided (it holds the rows its right rests on) and waits further on, in the
   * only-administrators-may-delete rule, for the settings lock (held here as a settings change holds it). A
   * revocation that comes now waits for the write, which commits with 200; only then does the revocation answer.
   */
  async function revocationWaits(via: 'user' | 'group') {
    const { user, revoke } = await editor(via);
    const [victim] = await addOptions(t, user.auth, p().options, [uniq('doomed-')]);
    const b = await blocker();
    // The lock of settings.service.ts (SETTINGS_LOCK), taken exclusively as PUT admin/settings takes it.
    await b.trx.raw('select pg_advisory_xact_lock(?)', [0x66657367]);
    let write: Promise<{ status: number; body: unknown }> | undefined;
    let revoked: Promise<void> | undefined;
    try {
      write = start(t.http.delete(p().option(victim!.id)).set('Authorization', user.auth));
      await waitBlockedBy(b.pid);
      revoked = revoke();
      // The revocation waits, and not for the blocker: for the write that decided on the grant.
      await waitBlockedButNotBy(b.pid);
    } finally {
      await b.trx.commit();
    }
    const res = await write;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await revoked;
    expect((await rows(null)).some((o) => o.id === victim!.id)).toBe(false);
    // The revocation took effect after the write: the next write is refused.
    const next = await t.http.post(p().options).set('Authorization', user.auth).send({ optionvalue: uniq('after-') });
    expect(next.status).toBe(403);
    expect(next.body).toEqual(NO_GRANT);
  }

  it('a grant revocation that comes after a write decided waits until the write has committed', async () => {
    await revocationWaits('user');
  });

  it('a removal from the granted group that comes after a write decided waits until the write has committed', async () => {
    await revocationWaits('group');
  });
});
