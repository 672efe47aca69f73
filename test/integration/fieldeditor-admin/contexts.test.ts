import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContext, createField, createProject, FE, grant, setOnlyAdminsMayDelete } from '../../helpers/tracker-fixtures.ts';

/** A5–A8 (contexts, admin) and U2/U3 (contexts, user). */
const t = useTestApp();
let sys: TestUser;
let u: TestUser;
let member: TestUser;
let outsider: TestUser;
let issueTypeId: string;

beforeAll(async () => {
  sys = await t.createUser('cx-sys', { sysadmin: true });
  u = await t.createUser('cx-user');
  member = await t.createUser('cx-member', { groups: ['cx-team'] });
  outsider = await t.createUser('cx-outsider');
  const it = await t.http.post('/rest/api/2/issuetype').set('Authorization', t.adminAuth).send({ name: 'Task-cx', description: 'T', type: 'subtask' });
  issueTypeId = it.body.id as string;
});

const A = (id: number | string, rest = '') => `${FE}/admin/customfields/${id}${rest}`;
const U = (id: number | string, rest = '') => `${FE}/user/customfields/${id}${rest}`;

describe('A5–A8 contexts', () => {
  it('creates, lists (expand on and off), updates and deletes a context', async () => {
    const f = await createField(t);
    const p = await createProject(t);
    const created = await t.http
      .post(A(f.id, '/contexts'))
      .set('Authorization', sys.auth)
      .send({ name: 'Ctx one', description: 'first', projectIds: [p.id], issueTypeIds: [issueTypeId] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      contextId: expect.any(Number),
      contextName: 'Ctx one',
      contextDescription: 'first',
      isGlobal: false,
      isAllIssueTypes: false,
      isAllProjects: false,
      projects: [{ projectId: p.id, projectKey: p.key, projectName: `Project ${p.key}`, projectDescription: '' }],
      issueTypes: [{ issueTypeId, issueTypeName: 'Task-cx', issueTypeDescription: 'T', issueTypeIsSubTask: true }],
    });
    const id = created.body.contextId as number;

    const plain = await t.http.get(A(f.id, '/contexts')).set('Authorization', t.adminAuth);
    expect(plain.body).toHaveLength(2);
    expect(plain.body[0]).toMatchObject({ contextId: f.defaultContextId, isGlobal: true });
    expect(plain.body[1]).not.toHaveProperty('projects');
    expect(plain.body[1]).not.toHaveProperty('issueTypes');
    const onlyProjects = await t.http.get(A(f.id, '/contexts?expand=projects')).set('Authorization', t.adminAuth);
    expect(onlyProjects.body[1].projects).toHaveLength(1);
    expect(onlyProjects.body[1]).not.toHaveProperty('issueTypes');
    expect(onlyProjects.body[0].projects).toEqual([]);

    const updated = await t.http.put(A(f.id, `/contexts/${id}`)).set('Authorization', t.adminAuth).send({ name: 'Renamed', issueTypeIds: [] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ contextName: 'Renamed', contextDescription: 'first', isAllIssueTypes: true, isAllProjects: false });

    const del = await t.http.delete(A(f.id, `/contexts/${id}`)).set('Authorization', t.adminAuth);
    expect(del.status).toBe(200);
    expect(del.body.contextId).toBe(id);
    expect((await t.http.get(A(f.id, '/contexts')).set('Authorization', t.adminAuth)).body).toHaveLength(1);
    expect((await t.http.delete(A(f.id, `/contexts/${id}`)).set('Authorization', t.adminAuth)).status).toBe(404);
  });

  it('a project may be in only one context of a field; only one context applies to all projects', async () => {
    const f = await createField(t);
    const p = await createProject(t);
    await createContext(t, f.id, { projectIds: [p.id] });
    const clash = await t.http.post(A(f.id, '/contexts')).set('Authorization', t.adminAuth).send({ name: 'B', projectIds: [p.id] });
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0]).toMatchObject({ name: 'projectIds', value: p.id });
    const global = await t.http.post(A(f.id, '/contexts')).set('Authorization', t.adminAuth).send({ name: 'G', projectIds: [] });
    expect(global.status).toBe(400);
    expect(global.body.errors[0].name).toBe('projectIds');
    // Another field may use the same project.
    const other = await createField(t);
    await createContext(t, other.id, { projectIds: [p.id] });
  });

  it('validates bodies and ids', async () => {
    const f = await createField(t);
    const p = await createProject(t);
    const cases: [unknown, string][] = [
      [{ description: 'no name', projectIds: [1] }, 'name'],
      [{ name: '', projectIds: [1] }, 'name'],
      [{ name: 'x', projectIds: [999999] }, 'projectIds'],
      [{ name: 'x', projectIds: ['abc'] }, 'projectIds.0'],
      [{ name: 'x', projectIds: 'all' }, 'projectIds'],
      [{ name: 'x', projectIds: [p.id], issueTypeIds: [999999] }, 'issueTypeIds'],
      [{ name: 'x', bogus: true }, 'body'],
    ];
    for (const [body, name] of cases) {
      const res = await t.http.post(A(f.id, '/contexts')).set('Authorization', t.adminAuth).send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { name: string }) => e.name), JSON.stringify(body)).toContain(name);
    }
    expect((await t.http.put(A(f.id, '/contexts/abc')).set('Authorization', t.adminAuth).send({})).body.errors[0].name).toBe('contextId');
    const other = await createField(t);
    const foreign = await t.http.put(A(f.id, `/contexts/${other.defaultContextId}`)).set('Authorization', t.adminAuth).send({ name: 'x' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ statusCode: 404, subCode: 404001, message: expect.any(String) });
  });

  it('the default context cannot be deleted (by id or as default)', async () => {
    const f = await createField(t);
    for (const id of [String(f.defaultContextId), 'default']) {
      const res = await t.http.delete(A(f.id, `/contexts/${id}`)).set('Authorization', t.adminAuth);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].name).toBe('contextId');
    }
  });

  it('deleting a context removes its grants', async () => {
    const f = await createField(t);
    const c = await createContext(t, f.id);
    await grant(t, f.id, { user: u.name, contextId: c.id });
    await t.http.delete(A(f.id, `/contexts/${c.id}`)).set('Authorization', t.adminAuth);
    expect((await t.http.get(`${FE}/user/customfields`).set('Authorization', u.auth)).body.map((x: { fieldId: number }) => x.fieldId)).not.toContain(f.id);
  });

  it('admin only: 403 for users, 401 anonymous, 403002 unknown field', async () => {
    const f = await createField(t);
    await grant(t, f.id, { user: u.name });
    for (const [m, path] of [
      ['get', A(f.id, '/contexts')],
      ['post', A(f.id, '/contexts')],
      ['put', A(f.id, `/contexts/${f.defaultContextId}`)],
      ['delete', A(f.id, `/contexts/${f.defaultContextId}`)],
    ] as const) {
      expect((await t.http[m](path).set('Authorization', u.auth).send({ name: 'x' })).body.subCode).toBe(403000);
      expect((await t.http[m](path).send({ name: 'x' })).status).toBe(401);
    }
    expect((await t.http.get(A(987654, '/contexts')).set('Authorization', t.adminAuth)).body.subCode).toBe(403002);
  });
});

describe('U2 user contexts', () => {
  it('a global grant lists every context; context grants list only theirs; expand works', async () => {
    const f = await createField(t);
    const c1 = await createContext(t, f.id);
    const c2 = await createContext(t, f.id);
    await grant(t, f.id, { user: u.name });
    await grant(t, f.id, { group: 'cx-team', contextId: c2.id });
    const all = await t.http.get(U(f.id, '/contexts')).set('Authorization', u.auth);
    expect(all.status).toBe(200);
    expect(all.body.map((c: { contextId: number }) => c.contextId)).toEqual([f.defaultContextId, c1.id, c2.id]);
    expect(all.body[1]).not.toHaveProperty('projects');
    const mine = await t.http.get(U(`customfield_${f.id}`, '/contexts?expand=projects,issueTypes')).set('Authorization', member.auth);
    expect(mine.body).toEqual([expect.objectContaining({ contextId: c2.id, projects: [expect.objectContaining({ projectId: expect.any(Number) })], issueTypes: [] })]);
  });

  it('without any grant: 403001, also for administrators; anonymous 401', async () => {
    const f = await createField(t);
    for (const auth of [outsider.auth, t.adminAuth, sys.auth]) {
      const res = await t.http.get(U(f.id, '/contexts')).set('Authorization', auth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ statusCode: 403, subCode: 403001, message: 'FieldPermission Denied - you do not have sufficient rights for this operation.' });
    }
    expect((await t.http.get(U(f.id, '/contexts'))).status).toBe(401);
    expect((await t.http.get(U(55555, '/contexts')).set('Authorization', u.auth)).body.subCode).toBe(403002);
  });
});

describe('U3 field, context and default', () => {
  it('answers field, context, default read model and the delete right', async () => {
    const f = await createField(t, { type: 'radiobuttons' });
    const c = await createContext(t, f.id);
    await grant(t, f.id, { user: u.name, contextId: c.id });
    const res = await t.http.get(U(f.id, `/contexts/${c.id}`)).set('Authorization', u.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fieldId: f.id,
      fieldName: f.name,
      fieldDescription: '',
      fieldType: 'radiobuttons',
      context: expect.objectContaining({ contextId: c.id, contextName: c.name, isGlobal: false }),
      defaultOption: {},
      authenticatedUserMeta: { userAllowedToDeleteOptions: true },
    });
    // The context grant does not reach the default context.
    const def = await t.http.get(U(f.id, '/contexts/default')).set('Authorization', u.auth);
    expect(def.status).toBe(403);
    expect(def.body.subCode).toBe(403001);
  });

  it('reports userAllowedToDeleteOptions false for non-admins when only admins may delete', async () => {
    const f = await createField(t);
    await grant(t, f.id, { user: u.name });
    await grant(t, f.id, { user: 'admin' });
    await setOnlyAdminsMayDelete(t, true);
    try {
      const res = await t.http.get(U(f.id, '/contexts/default')).set('Authorization', u.auth);
      expect(res.body.context.contextId).toBe(f.defaultContextId);
      expect(res.body.authenticatedUserMeta).toEqual({ userAllowedToDeleteOptions: false });
      const adm = await t.http.get(U(f.id, '/contexts/default')).set('Authorization', t.adminAuth);
      expect(adm.body.authenticatedUserMeta).toEqual({ userAllowedToDeleteOptions: true });
    } finally {
      await setOnlyAdminsMayDelete(t, false);
    }
  });

  it('errors: ungranted 403001 (even for unknown contexts), granted + unknown context 404001, bad ids 400', async () => {
    const f = await createField(t);
    const other = await createField(t);
    expect((await t.http.get(U(f.id, '/contexts/default')).set('Authorization', outsider.auth)).body.subCode).toBe(403001);
    expect((await t.http.get(U(f.id, '/contexts/424242')).set('Authorization', outsider.auth)).body.subCode).toBe(403001);
    await grant(t, f.id, { user: u.name });
    const foreign = await t.http.get(U(f.id, `/contexts/${other.defaultContextId}`)).set('Authorization', u.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body.subCode).toBe(404001);
    expect((await t.http.get(U(f.id, '/contexts/x1')).set('Authorization', u.auth)).body.errors[0].name).toBe('contextId');
    expect((await t.http.get(U('cf_1', '/contexts/default')).set('Authorization', u.auth)).body.errors[0].name).toBe('customFieldId');
    expect((await t.http.get(U(f.id, '/contexts/default'))).status).toBe(401);
  });
});
