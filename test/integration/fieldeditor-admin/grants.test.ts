import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContext, createField, FE, grant } from '../../helpers/tracker-fixtures.ts';

/** A2, A3, A4 (global grants), A9, A10 (context grants), and the user-deleted clean-up. */
const t = useTestApp();
let admin2: TestUser;
let sys: TestUser;
let carol: TestUser;
let dave: TestUser;

beforeAll(async () => {
  admin2 = await t.createUser('gr-admin', { admin: true });
  sys = await t.createUser('gr-sys', { sysadmin: true });
  carol = await t.createUser('gr-carol', { groups: ['gr-team'] });
  dave = await t.createUser('gr-dave');
  await t.services.directory.createGroup('gr-other');
});

const A = (id: number | string, rest = '') => `${FE}/admin/customfields/${id}${rest}`;

describe('A2/A3 global permission record', () => {
  it('reads an empty record, replaces it, and reads it back; expand adds field and full names', async () => {
    const f = await createField(t, { type: 'multiselect', description: 'desc' });
    expect((await t.http.get(A(f.id)).set('Authorization', t.adminAuth)).body).toEqual({ userlist: [], grouplist: [] });
    const put = await t.http.put(A(f.id)).set('Authorization', admin2.auth).send({ userlist: ['gr-carol', 'GR-DAVE', 'gr-carol'], grouplist: ['gr-team'] });
    expect(put.status).toBe(200);
    expect(put.text).toBe('');
    const plain = await t.http.get(A(f.id)).set('Authorization', sys.auth);
    expect(plain.body).toEqual({ userlist: ['gr-carol', 'GR-DAVE'], grouplist: ['gr-team'] });
    const exp = await t.http.get(A(`customfield_${f.id}`, '?expand=field,userlistWithFullnames')).set('Authorization', t.adminAuth);
    expect(exp.body.field).toEqual({ fieldId: f.id, fieldName: f.name, fieldDescription: 'desc', fieldType: 'multiselect' });
    expect(exp.body.userlistWithFullnames).toEqual([
      { username: 'gr-carol', fullname: 'gr-carol', exists: true, avatar: expect.stringContaining('ownerId=gr-carol') },
      { username: 'gr-dave', fullname: 'gr-dave', exists: true, avatar: expect.any(String) },
    ]);
    // Full replacement: a list left out becomes empty.
    await t.http.put(A(f.id)).set('Authorization', t.adminAuth).send({ grouplist: ['gr-other'] });
    expect((await t.http.get(A(f.id)).set('Authorization', t.adminAuth)).body).toEqual({ userlist: [], grouplist: ['gr-other'] });
  });

  it('A3 names each unknown user or group in a 400 and changes nothing', async () => {
    const f = await createField(t);
    await grant(t, f.id, { user: carol.name });
    const res = await t.http.put(A(f.id)).set('Authorization', t.adminAuth).send({ userlist: ['ghost1', 'gr-dave', 'ghost2'], grouplist: ['nogroup'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, subCode: 400000, message: 'validation errors' });
    expect(res.body.errors).toEqual([
      { name: 'userlist', message: expect.stringContaining('ghost1'), value: 'ghost1' },
      { name: 'userlist', message: expect.stringContaining('ghost2'), value: 'ghost2' },
      { name: 'grouplist', message: expect.stringContaining('nogroup'), value: 'nogroup' },
    ]);
    expect((await t.http.get(A(f.id)).set('Authorization', t.adminAuth)).body).toEqual({ userlist: [carol.name], grouplist: [] });
    const wrongType = await t.http.put(A(f.id)).set('Authorization', t.adminAuth).send({ userlist: 'gr-carol' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].name).toBe('userlist');
  });
});

describe('A4 PATCH grant / revoke', () => {
  it('grants and revokes globally, idempotently, answering the resulting record', async () => {
    const f = await createField(t);
    const send = (body: object) => t.http.patch(A(f.id)).set('Authorization', t.adminAuth).send(body);
    expect((await send({ user: 'gr-dave', action: 'GRANT', type: 'GLOBAL' })).body).toEqual({ userlist: ['gr-dave'], grouplist: [] });
    expect((await send({ user: 'GR-DAVE', action: 'GRANT', type: 'GLOBAL' })).body).toEqual({ userlist: ['gr-dave'], grouplist: [] });
    expect((await send({ group: 'gr-team', action: 'GRANT', type: 'GLOBAL' })).body).toEqual({ userlist: ['gr-dave'], grouplist: ['gr-team'] });
    expect((await send({ user: 'gr-dave', action: 'REVOKE', type: 'GLOBAL' })).body).toEqual({ userlist: [], grouplist: ['gr-team'] });
    const again = await send({ user: 'gr-dave', action: 'REVOKE', type: 'GLOBAL' });
    expect(again.status).toBe(200);
    // Revoking a name that does not exist is no error (it may be a deleted user's leftover).
    expect((await send({ user: 'never-was', action: 'REVOKE', type: 'GLOBAL' })).status).toBe(200);
  });

  it('grants and revokes for one context (numeric id or default)', async () => {
    const f = await createField(t);
    const c = await createContext(t, f.id);
    const send = (body: object) => t.http.patch(A(f.id)).set('Authorization', t.adminAuth).send(body);
    expect((await send({ user: 'gr-carol', action: 'GRANT', type: 'CONTEXT', contextId: c.id })).body).toEqual({ contextId: c.id, userlist: ['gr-carol'], grouplist: [] });
    expect((await send({ group: 'gr-team', action: 'GRANT', type: 'CONTEXT', contextId: 'default' })).body).toEqual({
      contextId: f.defaultContextId,
      userlist: [],
      grouplist: ['gr-team'],
    });
    expect((await t.http.get(A(f.id)).set('Authorization', t.adminAuth)).body).toEqual({ userlist: [], grouplist: [] });
    expect((await send({ user: 'gr-carol', action: 'REVOKE', type: 'CONTEXT', contextId: String(c.id) })).body).toEqual({ contextId: c.id, userlist: [], grouplist: [] });
  });

  it('validates the patch body', async () => {
    const f = await createField(t);
    const other = await createField(t);
    const cases: [object, string][] = [
      [{ action: 'GRANT', type: 'GLOBAL' }, 'user'],
      [{ user: 'gr-carol', group: 'gr-team', action: 'GRANT', type: 'GLOBAL' }, 'user'],
      [{ user: 'gr-carol', action: 'ALLOW', type: 'GLOBAL' }, 'action'],
      [{ user: 'gr-carol', action: 'GRANT', type: 'PROJECT' }, 'type'],
      [{ user: 'gr-carol', action: 'GRANT', type: 'CONTEXT' }, 'contextId'],
      [{ user: 'gr-carol', action: 'GRANT', type: 'CONTEXT', contextId: other.defaultContextId }, 'contextId'],
      [{ user: 'gr-carol', action: 'GRANT', type: 'CONTEXT', contextId: 'abc' }, 'contextId'],
      [{ user: 'ghost', action: 'GRANT', type: 'GLOBAL' }, 'userlist'],
      [{ group: 'ghosts', action: 'GRANT', type: 'GLOBAL' }, 'grouplist'],
      [{ user: 'gr-carol', action: 'GRANT', type: 'GLOBAL', extra: 1 }, 'body'],
    ];
    for (const [body, name] of cases) {
      const res = await t.http.patch(A(f.id)).set('Authorization', t.adminAuth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.subCode).toBe(400000);
      expect(res.body.errors.map((e: { name: string }) => e.name), JSON.stringify(body)).toContain(name);
    }
  });
});

describe('A9/A10 context permissions', () => {
  it('lists every context with its lists; A10 replaces them all', async () => {
    const f = await createField(t, { type: 'cascadingselect' });
    const c = await createContext(t, f.id);
    expect((await t.http.get(A(f.id, '/contexts/permissions')).set('Authorization', t.adminAuth)).body).toEqual([
      { contextId: f.defaultContextId, userlist: [], grouplist: [] },
      { contextId: c.id, userlist: [], grouplist: [] },
    ]);
    const put = await t.http
      .put(A(f.id, '/contexts/permissions'))
      .set('Authorization', t.adminAuth)
      .send([{ contextId: c.id, userlist: ['gr-carol', 'gr-dave'], grouplist: ['gr-team'] }, { contextId: 'default', userlist: ['gr-dave'] }]);
    expect(put.status).toBe(200);
    expect(put.body).toEqual([
      { contextId: f.defaultContextId, userlist: ['gr-dave'], grouplist: [] },
      { contextId: c.id, userlist: ['gr-carol', 'gr-dave'], grouplist: ['gr-team'] },
    ]);
    // Overwrite: the default context is left out, so it loses its grants.
    await t.http.put(A(f.id, '/contexts/permissions')).set('Authorization', t.adminAuth).send([{ contextId: c.id, userlist: ['gr-carol'], grouplist: [] }]);
    const after = await t.http.get(A(f.id, '/contexts/permissions?expand=userlistWithFullnames')).set('Authorization', t.adminAuth);
    expect(after.body).toEqual([
      { contextId: f.defaultContextId, userlist: [], grouplist: [], userlistWithFullnames: [] },
      { contextId: c.id, userlist: ['gr-carol'], grouplist: [], userlistWithFullnames: [expect.objectContaining({ username: 'gr-carol', exists: true })] },
    ]);
    // Global grants are untouched by A10.
    expect((await t.http.get(A(f.id)).set('Authorization', t.adminAuth)).body).toEqual({ userlist: [], grouplist: [] });
  });

  it('A10 refuses unknown users, foreign contexts, duplicates and non-arrays, changing nothing', async () => {
    const f = await createField(t);
    const other = await createField(t);
    await grant(t, f.id, { user: 'gr-carol', contextId: f.defaultContextId });
    const bad: [unknown, string][] = [
      [[{ contextId: f.defaultContextId, userlist: ['ghost'] }], 'userlist'],
      [[{ contextId: other.defaultContextId, userlist: [] }], 'contextId'],
      [[{ contextId: f.defaultContextId }, { contextId: 'default' }], 'contextId'],
      [{ contextId: f.defaultContextId }, 'body'],
    ];
    for (const [body, name] of bad) {
      const res = await t.http.put(A(f.id, '/contexts/permissions')).set('Authorization', t.adminAuth).send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { name: string }) => e.name)).toContain(name);
    }
    expect((await t.http.get(A(f.id, '/contexts/permissions')).set('Authorization', t.adminAuth)).body[0].userlist).toEqual(['gr-carol']);
  });
});

describe('deleted users', () => {
  it('a deleted user disappears from the grants; exists:false shows a leftover', async () => {
    const f = await createField(t);
    const erin = await t.createUser('gr-erin');
    await grant(t, f.id, { user: erin.name });
    await grant(t, f.id, { user: erin.name, contextId: f.defaultContextId });
    await grant(t, f.id, { user: carol.name });
    expect((await t.http.delete(`/rest/api/2/user?username=${erin.name}`).set('Authorization', t.adminAuth)).status).toBe(204);
    expect((await t.http.get(A(f.id)).set('Authorization', t.adminAuth)).body).toEqual({ userlist: [carol.name], grouplist: [] });
    expect((await t.http.get(A(f.id, '/contexts/permissions')).set('Authorization', t.adminAuth)).body[0].userlist).toEqual([]);
    // A leftover grant (e.g. from before deletions took their grants along) is shown with exists:false. Written directly:
    // A4 refuses unknown users, and deleting a user removes its grants.
    await t.services.db.knex('field_grants').insert({ field_id: f.id, context_id: null, principal_type: 'user', principal_name: 'gone-user', principal_key: 'gone-user' });
    const exp = await t.http.get(A(f.id, '?expand=userlistWithFullnames')).set('Authorization', t.adminAuth);
    expect(exp.body.userlistWithFullnames).toContainEqual(expect.objectContaining({ username: 'gone-user', fullname: 'gone-user', exists: false }));
    // A new user of the same name does not inherit the old grants.
    const erin2 = await t.createUser('gr-erin');
    expect((await t.http.get(`${FE}/user/customfields`).set('Authorization', erin2.auth)).body).toEqual([]);
  });
});

describe('errors common to A2–A4, A9, A10', () => {
  it('unknown field → 403 subCode 403002; bad id → 400 naming customFieldId', async () => {
    for (const req of [
      t.http.get(A(999999)),
      t.http.put(A(999999)).send({}),
      t.http.patch(A(999999)).send({ user: 'gr-carol', action: 'GRANT', type: 'GLOBAL' }),
      t.http.get(A(999999, '/contexts/permissions')),
      t.http.put(A(999999, '/contexts/permissions')).send([]),
    ]) {
      const res = await req.set('Authorization', t.adminAuth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ statusCode: 403, subCode: 403002, message: expect.any(String) });
    }
    for (const id of ['abc', 'customfield_', '-1', '0', '99999999999']) {
      const res = await t.http.get(A(id)).set('Authorization', t.adminAuth);
      expect(res.status, id).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ name: 'customFieldId', value: id });
    }
  });

  it('non-admins get 403 subCode 403000, anonymous 401, even with a grant', async () => {
    const f = await createField(t);
    await grant(t, f.id, { user: dave.name });
    for (const [method, path, body] of [
      ['get', A(f.id), undefined],
      ['put', A(f.id), {}],
      ['patch', A(f.id), { user: 'gr-dave', action: 'GRANT', type: 'GLOBAL' }],
      ['get', A(f.id, '/contexts/permissions'), undefined],
      ['put', A(f.id, '/contexts/permissions'), []],
    ] as const) {
      const denied = await t.http[method](path).set('Authorization', dave.auth).send(body as object);
      expect(denied.status, `${method} ${path}`).toBe(403);
      expect(denied.body.subCode).toBe(403000);
      const anon = await t.http[method](path).send(body as object);
      expect(anon.status).toBe(401);
      expect(anon.body.subCode).toBe(401000);
    }
  });
});
