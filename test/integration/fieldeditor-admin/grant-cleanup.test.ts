import { describe, expect, it } from 'vitest';
import { uniq, useTestApp } from '../../helpers/test-app.ts';
import { createContext, createField, FE, grant } from '../../helpers/tracker-fixtures.ts';
import { up as removeOrphanGrants } from '../../../migrations/20261123090000_fieldeditor_orphan_grants.ts';

/** Grants go with their user or group, inside the deletion's transaction (issue 9, point 3). */
const t = useTestApp();

const globalGrants = async (fieldId: number) =>
  (await t.http.get(`${FE}/admin/customfields/${fieldId}`).set('Authorization', t.adminAuth).expect(200)).body as { userlist: string[]; grouplist: string[] };
const contextGrants = async (fieldId: number) =>
  (await t.http.get(`${FE}/admin/customfields/${fieldId}/contexts/permissions`).set('Authorization', t.adminAuth).expect(200)).body as {
    contextId: number;
    userlist: string[];
    grouplist: string[];
  }[];

describe('deleting a user or a group', () => {
  it('a re-created user of the same name holds no grant, global or per context', async () => {
    const name = uniq('gc-user-');
    await t.createUser(name);
    const f = await createField(t);
    const c = await createContext(t, f.id);
    await grant(t, f.id, { user: name });
    await grant(t, f.id, { user: name, contextId: c.id });
    await t.services.directory.deleteUser(name);

    expect((await globalGrants(f.id)).userlist).not.toContain(name);
    expect((await contextGrants(f.id)).flatMap((p) => p.userlist)).not.toContain(name);
    const again = await t.createUser(name);
    expect((await t.http.get(`${FE}/user/customfields`).set('Authorization', again.auth).expect(200)).body).toEqual([]);
    await t.http.get(`${FE}/user/customfields/${f.id}/contexts/${c.id}/options`).set('Authorization', again.auth).expect(403);
  });

  it('a re-created group of the same name holds no grant', async () => {
    const group = uniq('gc-group-');
    await t.createUser(uniq('gc-member-'), { groups: [group] });
    const f = await createField(t);
    await grant(t, f.id, { group });
    await t.services.directory.deleteGroup(group);

    expect((await globalGrants(f.id)).grouplist).not.toContain(group);
    const member = await t.createUser(uniq('gc-new-'), { groups: [group] });
    expect((await t.http.get(`${FE}/user/customfields`).set('Authorization', member.auth).expect(200)).body).toEqual([]);
  });

  it('a deletion whose transaction fails after the user row is gone leaves the user and its grants as they were', async () => {
    const name = uniq('gc-keep-');
    const user = await t.createUser(name);
    const f = await createField(t);
    await grant(t, f.id, { user: name });
    // A later hook fails: the user row and the grants were already deleted in this transaction.
    t.services.directory.hooks.onUserDeleted(async (_trx, deleted) => {
      if (deleted.name === name) throw new Error('a hook failed');
    });

    await expect(t.services.directory.deleteUser(name)).rejects.toThrow('a hook failed');
    expect((await t.services.directory.getUser(name)).name).toBe(name);
    expect((await globalGrants(f.id)).userlist).toContain(name);
    const fields = (await t.http.get(`${FE}/user/customfields`).set('Authorization', user.auth).expect(200)).body as { fieldId: number }[];
    expect(fields.map((x) => x.fieldId)).toContain(f.id);
    // The event-log entry of the clean-up was written in that transaction, so it went with it.
    expect(await t.services.db.knex('event_log').where({ kind: 'user.deleted' }).andWhereRaw("target->>'name' = ?", [name])).toEqual([]);
  });
});

describe('the migration that removes grants left behind by earlier deletions', () => {
  it('removes the grants of names no user or group has, in any case, and keeps every other grant', async () => {
    const f = await createField(t);
    const c = await createContext(t, f.id);
    const keeper = uniq('gc-Keeper-');
    const group = uniq('gc-grp-');
    await t.createUser(keeper, { groups: [group] });
    await grant(t, f.id, { user: keeper });
    await grant(t, f.id, { group, contextId: c.id });
    // Left behind by a deletion before this release (A3 and A4 refuse names that do not exist): written directly.
    const ghost = (type: 'user' | 'group', name: string, contextId: number | null) => ({
      field_id: f.id,
      context_id: contextId,
      principal_type: type,
      principal_name: name,
      principal_key: name.toLowerCase(),
    });
    // A user and a group of another case are the same principal (names are matched by their lower-case key).
    await t.services.db
      .knex('field_grants')
      .insert([ghost('user', 'gc-Gone-User', null), ghost('user', 'gc-gone-user-2', c.id), ghost('group', 'gc-Gone-Group', null), ghost('user', keeper.toUpperCase(), c.id)]);

    await removeOrphanGrants(t.services.db.knex);

    const left = await t.services.db.knex('field_grants').where({ field_id: f.id }).orderBy('id').select('principal_type', 'principal_key', 'context_id');
    expect(left).toEqual([
      { principal_type: 'user', principal_key: keeper.toLowerCase(), context_id: null },
      { principal_type: 'group', principal_key: group.toLowerCase(), context_id: c.id },
      { principal_type: 'user', principal_key: keeper.toLowerCase(), context_id: c.id },
    ]);
  });
});
