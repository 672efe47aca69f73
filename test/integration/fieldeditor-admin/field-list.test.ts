import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContext, createField, FE, grant } from '../../helpers/tracker-fixtures.ts';

/** A1 (admin list) and U1 (user list): legacy forms, pages, filter, order, edges. */
const t = useTestApp();
let admin2: TestUser;
let sys: TestUser;
let granted: TestUser;
let viaGroup: TestUser;
let nobody: TestUser;
const fields: { id: number; name: string }[] = [];
const P = 'Zlist'; // every field of this file has this prefix, so filters isolate them

beforeAll(async () => {
  admin2 = await t.createUser('list-admin', { admin: true });
  sys = await t.createUser('list-sys', { sysadmin: true });
  granted = await t.createUser('list-granted');
  viaGroup = await t.createUser('list-member', { groups: ['list-team'] });
  nobody = await t.createUser('list-nobody');
  for (const n of ['Charlie', 'alpha', 'Bravo', 'delta', 'Echo']) fields.push(await createField(t, { name: `${P} ${n}` }));
  await grant(t, fields[0]!.id, { user: granted.name });
  await grant(t, fields[1]!.id, { group: 'list-team' });
  const ctx = await createContext(t, fields[2]!.id);
  await grant(t, fields[2]!.id, { user: granted.name, contextId: ctx.id });
});

const get = (path: string, auth?: string) => {
  const r = t.http.get(`${FE}${path}`);
  return auth ? r.set('Authorization', auth) : r;
};
const names = (values: { fieldName: string }[]) => values.map((v) => v.fieldName);

describe('A1 GET /admin/customfields', () => {
  it('without parameters answers the legacy plain array of all fields', async () => {
    const res = await get('/admin/customfields', t.adminAuth);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toContainEqual({ fieldId: fields[0]!.id, fieldName: `${P} Charlie`, fieldDescription: '', fieldType: 'singleselect' });
    expect(res.body[0]).not.toHaveProperty('globalPermission');
  });

  it('with a filter answers the page wrapper, ordered by name without regard to case', async () => {
    const res = await get(`/admin/customfields?filter=${P.toUpperCase()}`, t.adminAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ startAt: 0, maxResults: 20, total: 5, processingTimeInMs: expect.any(Number) });
    expect(names(res.body.values)).toEqual([`${P} alpha`, `${P} Bravo`, `${P} Charlie`, `${P} delta`, `${P} Echo`]);
  });

  it('carries globalPermission and contextPermissions per field', async () => {
    const res = await get(`/admin/customfields?filter=${P}`, t.adminAuth);
    const byName = Object.fromEntries(res.body.values.map((v: { fieldName: string }) => [v.fieldName, v]));
    expect(byName[`${P} Charlie`].globalPermission).toEqual({ userlist: [granted.name], grouplist: [] });
    expect(byName[`${P} Charlie`].contextPermissions).toEqual([]);
    expect(byName[`${P} alpha`].globalPermission).toEqual({ userlist: [], grouplist: ['list-team'] });
    const bravo = byName[`${P} Bravo`];
    expect(bravo.globalPermission).toEqual({ userlist: [], grouplist: [] });
    expect(bravo.contextPermissions).toEqual([
      {
        context: expect.objectContaining({ contextId: expect.any(Number), isGlobal: false, isAllProjects: false, isAllIssueTypes: true }),
        userlist: [granted.name],
        grouplist: [],
      },
    ]);
  });

  it('orders by -name, +name (encoded or not), name and fieldName', async () => {
    const desc = await get(`/admin/customfields?filter=${P}&orderBy=-name`, t.adminAuth);
    expect(names(desc.body.values)).toEqual([`${P} Echo`, `${P} delta`, `${P} Charlie`, `${P} Bravo`, `${P} alpha`]);
    for (const o of ['%2Bname', '+name', 'name', 'fieldName']) {
      const asc = await get(`/admin/customfields?filter=${P}&orderBy=${o}`, t.adminAuth);
      expect(asc.status).toBe(200);
      expect(names(asc.body.values)[0]).toBe(`${P} alpha`);
    }
  });

  it('refuses any other orderBy with a 400 naming orderBy', async () => {
    const res = await get('/admin/customfields?orderBy=id', t.adminAuth);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, subCode: 400000, message: 'validation errors' });
    expect(res.body.errors.map((e: { name: string }) => e.name)).toEqual(['orderBy']);
  });

  it('pages: startAt and maxResults, past the end, 0, huge', async () => {
    const p2 = await get(`/admin/customfields?filter=${P}&startAt=2&maxResults=2`, t.adminAuth);
    expect(p2.body).toMatchObject({ startAt: 2, maxResults: 2, total: 5 });
    expect(names(p2.body.values)).toEqual([`${P} Charlie`, `${P} delta`]);
    const past = await get(`/admin/customfields?filter=${P}&startAt=99`, t.adminAuth);
    expect(past.body).toMatchObject({ startAt: 99, total: 5, values: [] });
    const zero = await get(`/admin/customfields?filter=${P}&maxResults=0`, t.adminAuth);
    expect(zero.body).toMatchObject({ maxResults: 0, total: 5, values: [] });
    const huge = await get(`/admin/customfields?filter=${P}&maxResults=99999999999999999999`, t.adminAuth);
    expect(huge.status).toBe(200);
    expect(huge.body.maxResults).toBe(1000);
    expect(huge.body.values).toHaveLength(5);
    const hugeStart = await get(`/admin/customfields?filter=${P}&startAt=99999999999999999999`, t.adminAuth);
    expect(hugeStart.status).toBe(200);
    expect(hugeStart.body.values).toEqual([]);
  });

  it('refuses negative and non-numeric paging values and repeated parameters', async () => {
    for (const q of ['startAt=-1', 'maxResults=-5', 'maxResults=abc', 'startAt=1.5', 'startAt=1&startAt=2']) {
      const res = await get(`/admin/customfields?${q}`, t.adminAuth);
      expect(res.status, q).toBe(400);
      expect(res.body.errors[0].name).toBe(q.split('=')[0]);
    }
  });

  it('filter escapes LIKE wildcards and an empty filter matches all', async () => {
    const pct = await get('/admin/customfields?filter=%25', t.adminAuth);
    expect(pct.body.total).toBe(0);
    const all = await get('/admin/customfields?filter=', t.adminAuth);
    expect(all.body.total).toBeGreaterThanOrEqual(5);
  });

  it('is for administrators and system administrators only', async () => {
    expect((await get('/admin/customfields', admin2.auth)).status).toBe(200);
    expect((await get('/admin/customfields?startAt=0', sys.auth)).status).toBe(200);
    const denied = await get('/admin/customfields', granted.auth);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ statusCode: 403, subCode: 403000, message: expect.any(String) });
    const anon = await get('/admin/customfields');
    expect(anon.status).toBe(401);
    expect(anon.body).toMatchObject({ statusCode: 401, subCode: 401000 });
  });
});

describe('U1 GET /user/customfields', () => {
  it('legacy form lists the fields granted to the user (directly, per context) or to its groups', async () => {
    const mine = await get('/user/customfields', granted.auth);
    expect(mine.status).toBe(200);
    expect(names(mine.body).sort()).toEqual([`${P} Bravo`, `${P} Charlie`]);
    const group = await get('/user/customfields', viaGroup.auth);
    expect(names(group.body)).toEqual([`${P} alpha`]);
    expect(await get('/user/customfields', nobody.auth).then((r) => r.body)).toEqual([]);
  });

  it('administrators need grants like anyone', async () => {
    expect((await get('/user/customfields', t.adminAuth)).body).toEqual([]);
    expect((await get('/user/customfields', sys.auth)).body).toEqual([]);
  });

  it('paged, filtered and ordered form', async () => {
    const res = await get(`/user/customfields?filter=${P}&orderBy=-name&maxResults=1`, granted.auth);
    expect(res.body).toMatchObject({ startAt: 0, maxResults: 1, total: 2 });
    expect(res.body.values).toEqual([{ fieldId: fields[0]!.id, fieldName: `${P} Charlie`, fieldDescription: '', fieldType: 'singleselect' }]);
    const second = await get(`/user/customfields?filter=${P}&orderBy=-name&maxResults=1&startAt=1`, granted.auth);
    expect(names(second.body.values)).toEqual([`${P} Bravo`]);
    expect((await get('/user/customfields?maxResults=-1', granted.auth)).status).toBe(400);
    expect((await get('/user/customfields?orderBy=x', granted.auth)).body.errors[0].name).toBe('orderBy');
  });

  it('answers 401 to anonymous callers in the field-editor shape', async () => {
    const res = await get('/user/customfields');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, subCode: 401000, message: expect.any(String) });
  });
});
