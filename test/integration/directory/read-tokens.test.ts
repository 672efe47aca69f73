// Issue 10, point 4: read-scoped personal access tokens authenticate GET and HEAD only; every other method
// answers 403 in the API's own error shape, before anything is read or written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { dataFingerprint } from '../../helpers/db-snapshot.ts';
import { createContent, createSpace, multiBox } from '../../helpers/wiki-fixtures.ts';
import { fields, parseXml } from '../codeblocks/support.ts';

let t: TestApp;
let alice: TestUser;
let readToken: string;
let writeToken: string;
let pageId: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await t.createUser('rt-alice', { groups: ['rt-team'], admin: true });
  await createSpace(t, 'RT', { groups: ['rt-team'] }, { groups: ['rt-team'] });
  pageId = (await createContent(t, alice.auth, { title: 'Tokens', space: 'RT', body: multiBox('rt-box', '[a]\nk = v\n\n[content]\n${k}\n') })).id;
  const read = await t.http.post('/rest/pat/latest/tokens').set('Authorization', alice.auth).send({ name: 'provisioning', scope: 'read' });
  expect(read.status).toBe(201);
  readToken = `Bearer ${read.body.rawToken}`;
  const write = await t.http.post('/rest/pat/latest/tokens').set('Authorization', alice.auth).send({ name: 'laptop' });
  writeToken = `Bearer ${write.body.rawToken}`;
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('creating and listing tokens with a scope', () => {
  it('answers the scope on creation and in the list; write is the default', async () => {
    const list = await t.http.get('/rest/pat/latest/tokens').set('Authorization', alice.auth);
    expect(list.status).toBe(200);
    expect(list.body.map((x: { name: string; scope: string }) => [x.name, x.scope])).toEqual([
      ['provisioning', 'read'],
      ['laptop', 'write'],
    ]);
  });

  it('refuses an unknown scope with 400', async () => {
    const res = await t.http.post('/rest/pat/latest/tokens').set('Authorization', alice.auth).send({ name: 'x', scope: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('scope');
  });

  it('a read token cannot create a token, not even a read one (403)', async () => {
    const res = await t.http.post('/rest/pat/latest/tokens').set('Authorization', readToken).send({ name: 'y', scope: 'read' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ errorMessages: [expect.stringContaining('read-only')], errors: {} });
  });
});

type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';
const METHODS: Method[] = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/** One path per API family, each answering 200 to GET with a user that may read it. */
const FAMILIES = () => [
  { name: 'host directory', path: '/rest/api/2/myself', shape: (b: unknown) => expect(b).toEqual({ errorMessages: [expect.any(String)], errors: {} }) },
  { name: 'tokens', path: '/rest/pat/latest/tokens', shape: (b: unknown) => expect(b).toEqual({ errorMessages: [expect.any(String)], errors: {} }) },
  { name: 'wiki', path: `/rest/api/content/${pageId}`, shape: (b: unknown) => expect(b).toMatchObject({ statusCode: 403, data: { authorized: false } }) },
  { name: 'wiki lists', path: '/rest/api/space', shape: (b: unknown) => expect(b).toMatchObject({ statusCode: 403, data: { authorized: false } }) },
  {
    name: 'field editor',
    path: '/rest/trackercustomfieldeditorplugin/1/admin/customfields',
    shape: (b: unknown) => expect(b).toMatchObject({ statusCode: 403, subCode: expect.any(Number), message: expect.stringContaining('read-only') }),
  },
  {
    name: 'code blocks',
    path: `/rest/advancedcodeblocks/1/download_list/json?contentId=${pageId}&macroId=rt-box`,
    shape: (b: unknown) => expect(b).toMatchObject({ error: '403_FORBIDDEN', message: expect.stringContaining('read-only') }),
  },
];

describe('a read token on every method of every API family', () => {
  it('authenticates GET and HEAD, and answers 403 to every other method in the API shape, writing nothing', async () => {
    const before = await dataFingerprint(t.services.db.knex);
    for (const family of FAMILIES()) {
      for (const method of METHODS) {
        const res = await t.http[method](family.path).set('Authorization', readToken).send(method === 'get' || method === 'head' ? undefined : {});
        const label = `${family.name} ${method.toUpperCase()}`;
        if (method === 'get' || method === 'head') {
          expect(res.status, label).toBe(200);
          continue;
        }
        expect(res.status, label).toBe(403);
        family.shape(res.body);
      }
    }
    expect(await dataFingerprint(t.services.db.knex)).toEqual(before);
  });

  it('answers 403 in XML on the XML list, and in text on E1', async () => {
    const xml = await t.http.post(`/rest/advancedcodeblocks/1/download_list/xml?contentId=${pageId}&macroId=rt-box`).set('Authorization', readToken);
    expect(xml.status).toBe(403);
    expect(fields(parseXml(xml.text)).error).toBe('403_FORBIDDEN');
    const text = await t.http.delete(`/rest/advancedcodeblocks/1/download_code/plain_text?contentId=${pageId}&macroId=rt-box&key=cmF3`).set('Authorization', readToken);
    expect(text.status).toBe(403);
    expect(text.text).toContain('read-only');
  });

  it('downloads with a read token (the provisioning use)', async () => {
    const res = await t.http.get(`/rest/advancedcodeblocks/1/download_code/plain_text?contentId=${pageId}&macroId=rt-box&key=YQ`).set('Authorization', readToken);
    expect(res.status).toBe(200);
    expect(res.text).toBe('v\n');
  });

  it('a write token and Basic keep every method (control)', async () => {
    for (const auth of [writeToken, alice.auth]) {
      const res = await t.http.post('/rest/api/2/group').set('Authorization', auth).send({ name: `rt-${auth.length}-${Date.now()}` });
      expect(res.status).toBe(201);
    }
  });

  it('a revoked read token answers 401, not 403', async () => {
    const created = await t.http.post('/rest/pat/latest/tokens').set('Authorization', alice.auth).send({ name: 'short', scope: 'read' });
    await t.http.delete(`/rest/pat/latest/tokens/${created.body.id}`).set('Authorization', alice.auth).expect(204);
    const res = await t.http.post('/rest/api/2/group').set('Authorization', `Bearer ${created.body.rawToken}`).send({ name: 'x' });
    expect(res.status).toBe(401);
  });
});
