import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createField, grant } from '../../helpers/tracker-fixtures.ts';

/** The four base paths, 412 under 1.2, health without auth, and the error format for foundation errors. */
const t = useTestApp();
let u: TestUser;
let field: { id: number; defaultContextId: number };

const BASES = [
  '/rest/trackercustomfieldeditorplugin/1',
  '/rest/trackercustomfieldeditorplugin/1.2',
  '/rest/jiracustomfieldeditorplugin/1',
  '/rest/jiracustomfieldeditorplugin/1.2',
];

beforeAll(async () => {
  u = await t.createUser('bp-user');
  field = await createField(t);
  await grant(t, field.id, { user: u.name });
});

describe('base paths', () => {
  it.each(BASES)('%s answers the admin and user endpoints', async (base) => {
    const admin = await t.http.get(`${base}/admin/customfields/${field.id}`).set('Authorization', t.adminAuth);
    expect(admin.body).toEqual({ userlist: [u.name], grouplist: [] });
    const user = await t.http.get(`${base}/user/customfields`).set('Authorization', await t.tokenFor(u.name));
    expect(user.body.map((f: { fieldId: number }) => f.fieldId)).toEqual([field.id]);
    const contexts = await t.http.get(`${base}/user/customfields/customfield_${field.id}/contexts`).set('Authorization', u.auth);
    expect(contexts.status).toBe(200);
  });

  it.each(BASES)('%s/health/status answers 200 without (or with a wrong) credential', async (base) => {
    expect((await t.http.get(`${base}/health/status`)).status).toBe(200);
    expect((await t.http.get(`${base}/health/status`).set('Authorization', 'Basic Ym9ndXM6d3Jvbmc=')).status).toBe(200);
  });

  it('routes newer than 1.2 answer 412 under 1.2 and work under 1', async () => {
    const patch = { user: u.name, action: 'GRANT', type: 'GLOBAL' };
    for (const prefix of ['/rest/trackercustomfieldeditorplugin', '/rest/jiracustomfieldeditorplugin']) {
      const old = `${prefix}/1.2`;
      const checks = [
        t.http.patch(`${old}/admin/customfields/${field.id}`).send(patch),
        t.http.post(`${old}/admin/customfields/${field.id}/contexts`).send({ name: 'x' }),
        t.http.put(`${old}/admin/customfields/${field.id}/contexts/${field.defaultContextId}`).send({ name: 'x' }),
        t.http.delete(`${old}/admin/customfields/${field.id}/contexts/${field.defaultContextId}`),
      ];
      for (const req of checks) {
        const res = await req.set('Authorization', t.adminAuth);
        expect(res.status).toBe(412);
        expect(res.body).toEqual({ statusCode: 412, subCode: 412000, message: expect.stringContaining('not available') });
      }
      const u3 = await t.http.get(`${old}/user/customfields/${field.id}/contexts/default`).set('Authorization', u.auth);
      expect(u3.status).toBe(412);
      expect((await t.http.get(`${prefix}/1/user/customfields/${field.id}/contexts/default`).set('Authorization', u.auth)).status).toBe(200);
      expect((await t.http.patch(`${prefix}/1/admin/customfields/${field.id}`).set('Authorization', t.adminAuth).send(patch)).status).toBe(200);
    }
  });
});

describe('error format', () => {
  it('401 for a wrong password carries the field-editor body and the login-reason header', async () => {
    const res = await t.http.get(`${BASES[0]}/user/customfields`).set('Authorization', 'Basic Ym9ndXM6d3Jvbmc=');
    expect(res.status).toBe(401);
    expect(res.headers['x-seraph-loginreason']).toBeDefined();
    expect(res.body).toEqual({ statusCode: 401, subCode: 401000, message: expect.any(String) });
  });

  it('unknown routes are 404 in the field-editor shape', async () => {
    const res = await t.http.get(`${BASES[0]}/nothing/here`).set('Authorization', t.adminAuth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, subCode: 404000, message: expect.any(String) });
  });

  it('invalid JSON is a 400 with an errors list; a too large body is 413', async () => {
    const bad = await t.http.put(`${BASES[0]}/admin/customfields/${field.id}`).set('Authorization', t.adminAuth).set('Content-Type', 'application/json').send('{"userlist": [');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, subCode: 400000, errors: [expect.objectContaining({ name: 'body' })] });
    const big = await t.http
      .put(`${BASES[0]}/admin/customfields/${field.id}`)
      .set('Authorization', t.adminAuth)
      .send({ userlist: Array.from({ length: 60_000 }, (_, i) => `user-${i}-xxxxxxxxxx`) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ statusCode: 413, subCode: 413000, message: expect.any(String) });
  });

  it('an unexpected failure is a 500 with a generic message', async () => {
    const spy = t.services.fieldeditor.grants.globalPermission;
    t.services.fieldeditor.grants.globalPermission = () => Promise.reject(new Error('secret SQL detail'));
    try {
      const res = await t.http.get(`${BASES[0]}/admin/customfields/${field.id}`).set('Authorization', t.adminAuth);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ statusCode: 500, subCode: 500000, message: 'Internal server error' });
    } finally {
      t.services.fieldeditor.grants.globalPermission = spy;
    }
  });
});
