import { beforeAll, describe, expect, it } from 'vitest';
import { uniq, useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createField, createProject, TYPE } from '../../helpers/tracker-fixtures.ts';

const t = useTestApp();
let bob: TestUser;

beforeAll(async () => {
  bob = await t.createUser('bob-host');
});

describe('POST/GET /rest/api/2/project', () => {
  it('creates a project (admin) and lists it for any user', async () => {
    const res = await t.http.post('/rest/api/2/project').set('Authorization', t.adminAuth).send({ key: 'HOSTA', name: 'Host A', description: 'd' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key: 'HOSTA', self: expect.stringContaining(`/rest/api/2/project/${res.body.id}`) });
    expect(typeof res.body.id).toBe('number');
    const list = await t.http.get('/rest/api/2/project').set('Authorization', bob.auth);
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual({ id: String(res.body.id), key: 'HOSTA', name: 'Host A', description: 'd', projectTypeKey: 'software' });
  });

  it('refuses a taken key, a bad key and unknown lead with 400 in Jira shape', async () => {
    await createProject(t, 'HOSTB');
    const dup = await t.http.post('/rest/api/2/project').set('Authorization', t.adminAuth).send({ key: 'HOSTB', name: 'x' });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ errorMessages: [], errors: { projectKey: expect.stringContaining('already exists') } });
    const bad = await t.http.post('/rest/api/2/project').set('Authorization', t.adminAuth).send({ key: 'lower', name: 'x' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['key']);
    const lead = await t.http.post('/rest/api/2/project').set('Authorization', t.adminAuth).send({ key: 'HOSTC', name: 'x', lead: 'nobody-here' });
    expect(lead.status).toBe(400);
    expect(lead.body.errors.lead).toContain('does not exist');
  });

  it('needs an administrator to create (403) and a user to list (401)', async () => {
    const res = await t.http.post('/rest/api/2/project').set('Authorization', bob.auth).send({ key: 'HOSTD', name: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.errorMessages).toHaveLength(1);
    expect((await t.http.get('/rest/api/2/project')).status).toBe(401);
    expect((await t.http.post('/rest/api/2/project').send({ key: 'HOSTE', name: 'x' })).status).toBe(401);
  });
});

describe('POST/GET /rest/api/2/issuetype', () => {
  it('creates standard and sub-task types; ids are strings; names unique without regard to case', async () => {
    const a = await t.http.post('/rest/api/2/issuetype').set('Authorization', t.adminAuth).send({ name: 'Bug-host', description: 'A bug' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ id: expect.stringMatching(/^\d+$/), name: 'Bug-host', description: 'A bug', subtask: false });
    const b = await t.http.post('/rest/api/2/issuetype').set('Authorization', t.adminAuth).send({ name: 'Sub-host', type: 'subtask' });
    expect(b.body.subtask).toBe(true);
    const dup = await t.http.post('/rest/api/2/issuetype').set('Authorization', t.adminAuth).send({ name: 'BUG-HOST' });
    expect(dup.status).toBe(400);
    const badType = await t.http.post('/rest/api/2/issuetype').set('Authorization', t.adminAuth).send({ name: 'X-host', type: 'epic' });
    expect(badType.status).toBe(400);
    expect(badType.body.errors.type).toBeDefined();
    const list = await t.http.get('/rest/api/2/issuetype').set('Authorization', bob.auth);
    expect(list.body.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['Bug-host', 'Sub-host']));
    expect((await t.http.post('/rest/api/2/issuetype').set('Authorization', bob.auth).send({ name: 'Z' })).status).toBe(403);
    expect((await t.http.get('/rest/api/2/issuetype')).status).toBe(401);
  });
});

describe('POST/GET /rest/api/2/field', () => {
  it('creates a field of every editable type with its default context', async () => {
    for (const [short, key] of [
      ['singleselect', TYPE.singleselect],
      ['radiobuttons', TYPE.radiobuttons],
      ['cascadingselect', TYPE.cascadingselect],
      ['multiselect', TYPE.multiselect],
      ['multicheckboxes', TYPE.multicheckboxes],
      ['textfield', TYPE.textfield],
      [TYPE.multilevel, TYPE.multilevel],
      ['com.example.vendor:thing', 'com.example.vendor:thing'],
    ] as const) {
      const name = uniq(`F ${short} `);
      const res = await t.http.post('/rest/api/2/field').set('Authorization', t.adminAuth).send({ name, type: key });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: `customfield_${res.body.schema.customId}`, name, custom: true, schema: { custom: key } });
      const fe = await t.http.get(`/rest/trackercustomfieldeditorplugin/1/admin/customfields/${res.body.schema.customId}?expand=field`).set('Authorization', t.adminAuth);
      expect(fe.body.field.fieldType).toBe(short);
      const ctx = await t.http.get(`/rest/trackercustomfieldeditorplugin/1/admin/customfields/${res.body.schema.customId}/contexts`).set('Authorization', t.adminAuth);
      expect(ctx.body).toEqual([
        expect.objectContaining({ contextName: `Default Configuration Scheme for ${name}`, isGlobal: true, isAllProjects: true, isAllIssueTypes: true }),
      ]);
    }
  });

  it('refuses unknown system type keys and malformed keys', async () => {
    for (const type of ['com.atlassian.jira.plugin.system.customfieldtypes:nope', 'no colon', '', 42]) {
      const res = await t.http.post('/rest/api/2/field').set('Authorization', t.adminAuth).send({ name: 'x', type });
      expect(res.status).toBe(400);
      expect(res.body.errors.type).toBeDefined();
    }
    const noName = await t.http.post('/rest/api/2/field').set('Authorization', t.adminAuth).send({ type: TYPE.singleselect });
    expect(noName.body.errors.name).toBeDefined();
  });

  it('lists fields for any user; create is admin-only', async () => {
    const f = await createField(t, { type: 'radiobuttons' });
    const list = await t.http.get('/rest/api/2/field').set('Authorization', bob.auth);
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual(expect.objectContaining({ id: `customfield_${f.id}`, name: f.name, custom: true }));
    expect((await t.http.post('/rest/api/2/field').set('Authorization', bob.auth).send({ name: 'x', type: TYPE.singleselect })).status).toBe(403);
    expect((await t.http.get('/rest/api/2/field')).status).toBe(401);
  });
});
