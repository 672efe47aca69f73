import { describe, expect, it } from 'vitest';
import { uniq, useTestApp } from '../../helpers/test-app.ts';
import { createContext, createField, FE, grant } from '../../helpers/tracker-fixtures.ts';

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
  });
});
