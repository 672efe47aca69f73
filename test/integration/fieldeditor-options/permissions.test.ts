import { beforeAll, describe, expect, it } from 'vitest';
import type { Test } from 'supertest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { FE, addOptions, createContext, createField, grant, paths } from '../../helpers/tracker-fixtures.ts';

const NO_GRANT = 'FieldPermission Denied - you do not have sufficient rights for this operation.';

describe('field editor options: authentication, grants, only-admins-delete setting', () => {
  const t = useTestApp();
  let owner: TestUser; // global grant
  let ctxUser: TestUser; // grant on one context only
  let groupUser: TestUser; // grant through a group
  let stranger: TestUser; // no grant
  let admin2: TestUser; // administrator without a grant
  let adminGranted: TestUser; // administrator with a grant
  let f: { id: number; defaultContextId: number };
  let other: number;
  let cascade: { id: number; defaultContextId: number };
  let parentId: number;

  beforeAll(async () => {
    owner = await t.createUser('perm-owner');
    ctxUser = await t.createUser('perm-ctx');
    groupUser = await t.createUser('perm-group', { groups: ['option-keepers'] });
    stranger = await t.createUser('perm-stranger');
    admin2 = await t.createUser('perm-admin', { admin: true });
    adminGranted = await t.createUser('perm-admin-granted', { admin: true });
    f = await createField(t, { type: 'singleselect' });
    other = (await createContext(t, f.id)).id;
    await grant(t, f.id, { user: owner.name });
    await grant(t, f.id, { user: ctxUser.name, contextId: other });
    await grant(t, f.id, { group: 'Option-Keepers' });
    await grant(t, f.id, { user: adminGranted.name });
    cascade = await createField(t, { type: 'cascadingselect' });
    await grant(t, cascade.id, { user: owner.name });
    await grant(t, cascade.id, { user: adminGranted.name });
    const [parent] = await addOptions(t, owner.auth, paths(cascade.id, 'default').options, ['Parent']);
    parentId = parent!.id;
  });

  /** Every option endpoint of one context, as request factories. */
  function endpoints(fieldId: number, context: number | 'default', optionId: number, childParent: number, childId: number) {
    const p = paths(fieldId, context);
    return [
      () => t.http.get(p.options),
      () => t.http.post(p.options).send({ optionvalue: `n-${Math.random()}` }),
      () => t.http.put(p.option(optionId)).send({ disabled: false }),
      () => t.http.post(p.move(optionId)).send({ position: 'First' }),
      () => t.http.put(p.sort).send({ locale: 'en-US' }),
      () => t.http.post(p.sort).send({ locale: 'en-US' }),
      () => t.http.get(p.default),
      () => t.http.put(p.default).send({ optionId }),
      () => t.http.delete(p.default),
      () => t.http.delete(p.option(optionId)),
      () => t.http.get(p.children(childParent)),
      () => t.http.post(p.children(childParent)).send({ optionvalue: `c-${Math.random()}` }),
      () => t.http.put(p.child(childParent, childId)).send({ disabled: false }),
      () => t.http.post(p.childMove(childParent, childId)).send({ position: 'First' }),
      () => t.http.put(p.childSort(childParent)).send({ locale: 'en-US' }),
      () => t.http.delete(p.child(childParent, childId)),
    ];
  }

  it('answers 401 without credentials and with a wrong password, in the field editor format', async () => {
    for (const call of endpoints(f.id, 'default', 1, 1, 2)) {
      const res = await call();
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401 });
    }
    const bad = await t.http.get(paths(f.id, 'default').options).set('Authorization', 'Basic ' + Buffer.from('perm-owner:nope').toString('base64'));
    expect(bad.status).toBe(401);
    expect(bad.body.statusCode).toBe(401);
  });

  it('answers 403001 to users without a grant, to administrators without a grant, and for unknown fields', async () => {
    for (const user of [stranger, admin2]) {
      for (const [i, call] of endpoints(f.id, 'default', 1, 1, 2).entries()) {
        const res = await (call() as Test).set('Authorization', user.auth);
        expect(res.status, `${user.name} endpoint #${i}`).toBe(403);
        expect(res.body).toEqual({ statusCode: 403, subCode: 403001, message: NO_GRANT });
      }
    }
    const res = await t.http.get(paths(99999999, 'default').options).set('Authorization', owner.auth).expect(403);
    expect(res.body.statusCode).toBe(403);
  });

  it('limits a context grant to its context', async () => {
    const [inOther] = await addOptions(t, ctxUser.auth, paths(f.id, other).options, ['ctx-only']);
    await t.http.put(paths(f.id, other).option(inOther!.id)).set('Authorization', ctxUser.auth).send({ optionvalue: 'ctx-renamed' }).expect(200);
    for (const context of ['default', f.defaultContextId] as const) {
      for (const [i, call] of endpoints(f.id, context, inOther!.id, 1, 2).entries()) {
        const res = await (call() as Test).set('Authorization', ctxUser.auth);
        expect(res.status, `${String(context)} endpoint #${i}`).toBe(403);
        expect(res.body.subCode).toBe(403001);
      }
    }
  });

  it('honours group grants (names compared without regard to case) and global grants on every context', async () => {
    await addOptions(t, groupUser.auth, paths(f.id, 'default').options, ['by-group']);
    await addOptions(t, owner.auth, paths(f.id, other).options, ['by-owner-in-other']);
    await addOptions(t, adminGranted.auth, paths(f.id, 'default').options, ['by-admin']);
  });

  async function setOnlyAdmins(value: boolean | string) {
    const res = await t.http.put(`${FE}/admin/settings`).set('Authorization', t.adminAuth).send({ onlyAdminsMayDeleteOptions: value }).expect(200);
    expect(res.body).toEqual({ onlyAdminsMayDeleteOptions: value === true || value === 'true' });
  }

  it('only-admins-delete on: every delete endpoint answers 403 to granted non-administrators; administrators may', async () => {
    const p = paths(f.id, 'default');
    const c = paths(cascade.id, 'default');
    const [o1, o2] = await addOptions(t, owner.auth, p.options, ['del-1', 'del-2']);
    const [k1, k2] = await addOptions(t, owner.auth, c.children(parentId), ['kid-1', 'kid-2']);
    await setOnlyAdmins(true);
    try {
      for (const req of [
        () => t.http.delete(p.option(o1!.id)),
        () => t.http.delete(c.child(parentId, k1!.id)),
        () => t.http.delete(p.default),
      ]) {
        const res = await req().set('Authorization', owner.auth);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ statusCode: 403, subCode: 403003 });
      }
      // Other writes still work for the grantee.
      await t.http.put(p.option(o1!.id)).set('Authorization', owner.auth).send({ disabled: true }).expect(200);
      // An administrator with a grant may delete.
      await t.http.delete(p.option(o1!.id)).set('Authorization', adminGranted.auth).expect(200);
      await t.http.delete(c.child(parentId, k1!.id)).set('Authorization', adminGranted.auth).expect(200);
      await t.http.delete(p.default).set('Authorization', adminGranted.auth).expect(204);
      // The setting does not replace the grant: an administrator without one is still refused.
      expect((await t.http.delete(p.option(o2!.id)).set('Authorization', admin2.auth).expect(403)).body.subCode).toBe(403001);
    } finally {
      await setOnlyAdmins('false');
    }
    await t.http.delete(p.option(o2!.id)).set('Authorization', owner.auth).expect(200);
    await t.http.delete(c.child(parentId, k2!.id)).set('Authorization', owner.auth).expect(200);
  });

  it('GET/PUT admin/settings: administrators only, validated, not under 1.2', async () => {
    await t.http.get(`${FE}/admin/settings`).expect(401);
    const denied = await t.http.get(`${FE}/admin/settings`).set('Authorization', owner.auth).expect(403);
    expect(denied.body).toMatchObject({ statusCode: 403, subCode: 403000 });
    await t.http.put(`${FE}/admin/settings`).set('Authorization', owner.auth).send({ onlyAdminsMayDeleteOptions: true }).expect(403);
    expect((await t.http.get(`${FE}/admin/settings`).set('Authorization', admin2.auth).expect(200)).body).toEqual({ onlyAdminsMayDeleteOptions: false });
    const bad = await t.http.put(`${FE}/admin/settings`).set('Authorization', t.adminAuth).send({ onlyAdminsMayDeleteOptions: 'perhaps' }).expect(400);
    expect(bad.body.errors[0].name).toBe('onlyAdminsMayDeleteOptions');
    // Partial: an empty body changes nothing.
    expect((await t.http.put(`${FE}/admin/settings`).set('Authorization', t.adminAuth).send({}).expect(200)).body).toEqual({ onlyAdminsMayDeleteOptions: false });
    const old = await t.http.get('/rest/trackercustomfieldeditorplugin/1.2/admin/settings').set('Authorization', t.adminAuth).expect(412);
    expect(old.body).toMatchObject({ statusCode: 412, subCode: 412000 });
  });
});
