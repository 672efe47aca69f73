import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createSpace } from '../../helpers/wiki-fixtures.ts';

const t = useTestApp();
let reader: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  reader = await t.createUser('sp-reader', { groups: ['sp-readers'] });
  stranger = await t.createUser('sp-stranger');
  await createSpace(t, 'SP', { groups: ['sp-readers'] });
}, 60_000);

const errorShape = (status: number) => ({
  statusCode: status,
  data: expect.objectContaining({ successful: false, errors: expect.any(Array) }),
  message: expect.any(String),
  reason: expect.any(String),
});

describe('POST /rest/api/space', () => {
  it('creates a space for an administrator', async () => {
    const res = await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).send({ key: 'NEW1', name: 'New one', description: 'd' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'NEW1', name: 'New one', type: 'global', id: expect.any(Number) });
    expect(res.body._links.self).toBe('http://localhost:8080/rest/api/space/NEW1');
  });

  it('refuses a key taken in another case with 400', async () => {
    const res = await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).send({ key: 'sp', name: 'Dup' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(errorShape(400));
  });

  it('validates key and name (400, never 500)', async () => {
    for (const body of [{ key: 'a-b', name: 'x' }, { key: 'OK' }, { key: 12, name: 'x' }, 'nope']) {
      // Every body as JSON: a bare string would go out form-encoded, which is refused before validation (403, issue 26).
      const res = await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).set('Content-Type', 'application/json').send(JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.data.valid).toBe(false);
    }
  });

  it('is for administrators: 403 for a user, 401 anonymous', async () => {
    const forbidden = await t.http.post('/rest/api/space').set('Authorization', reader.auth).send({ key: 'NOPE', name: 'n' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ ...errorShape(403), data: expect.objectContaining({ authorized: false }) });
    const anon = await t.http.post('/rest/api/space').send({ key: 'NOPE', name: 'n' });
    expect(anon.status).toBe(401);
    expect(anon.body.statusCode).toBe(401);
    expect(anon.headers['www-authenticate']).toBeDefined();
  });
});

describe('GET /rest/api/space/{key}', () => {
  it('answers readers, with Basic and with Bearer', async () => {
    const basic = await t.http.get('/rest/api/space/SP').set('Authorization', reader.auth);
    expect(basic.status).toBe(200);
    expect(basic.body).toMatchObject({ key: 'SP', name: 'Space SP', type: 'global' });
    const bearer = await t.http.get('/rest/api/space/SP').set('Authorization', await t.tokenFor(reader.name));
    expect(bearer.status).toBe(200);
  });

  it('answers 404 to non-readers (administrators included) and for unknown keys', async () => {
    expect((await t.http.get('/rest/api/space/SP').set('Authorization', stranger.auth)).status).toBe(404);
    expect((await t.http.get('/rest/api/space/SP').set('Authorization', t.adminAuth)).status).toBe(404);
    const unknown = await t.http.get('/rest/api/space/NOSUCH').set('Authorization', reader.auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(errorShape(404));
  });

  it('401 anonymous, 400 for a malformed key', async () => {
    expect((await t.http.get('/rest/api/space/SP')).status).toBe(401);
    expect((await t.http.get('/rest/api/space/a%20b').set('Authorization', reader.auth)).status).toBe(400);
  });
});

describe('space permissions', () => {
  it('grants read to a user, idempotently, and revokes it', async () => {
    const grant = () =>
      t.http
        .post('/rest/api/space/SP/permission')
        .set('Authorization', t.adminAuth)
        .send({ subject: { type: 'user', identifier: 'sp-stranger' }, operation: { key: 'read', target: 'space' } });
    const first = await grant();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: expect.any(Number), subject: { type: 'user', identifier: 'sp-stranger' }, operation: { key: 'read', target: 'space' } });
    expect((await grant()).body.id).toBe(first.body.id);
    expect((await t.http.get('/rest/api/space/SP').set('Authorization', stranger.auth)).status).toBe(200);

    const del = await t.http.delete(`/rest/api/space/SP/permission/${first.body.id}`).set('Authorization', t.adminAuth);
    expect(del.status).toBe(204);
    expect((await t.http.get('/rest/api/space/SP').set('Authorization', stranger.auth)).status).toBe(404);
    const again = await t.http.delete(`/rest/api/space/SP/permission/${first.body.id}`).set('Authorization', t.adminAuth);
    expect(again.status).toBe(404);
  });

  it('400 for unknown subjects, bad operations and read on a non-space target; 404 for unknown spaces', async () => {
    const post = (key: string, body: unknown) => t.http.post(`/rest/api/space/${key}/permission`).set('Authorization', t.adminAuth).send(body as object);
    expect((await post('SP', { subject: { type: 'user', identifier: 'ghost' }, operation: { key: 'read', target: 'space' } })).status).toBe(400);
    expect((await post('SP', { subject: { type: 'group', identifier: 'ghosts' }, operation: { key: 'read', target: 'space' } })).status).toBe(400);
    expect((await post('SP', { subject: { type: 'role', identifier: 'x' }, operation: { key: 'read', target: 'space' } })).status).toBe(400);
    expect((await post('SP', { subject: { type: 'user', identifier: 'sp-reader' }, operation: { key: 'admin', target: 'space' } })).status).toBe(400);
    expect((await post('SP', { subject: { type: 'user', identifier: 'sp-reader' }, operation: { key: 'read', target: 'page' } })).status).toBe(400);
    expect((await post('NOSUCH', { subject: { type: 'user', identifier: 'sp-reader' }, operation: { key: 'read', target: 'space' } })).status).toBe(404);
    expect((await t.http.delete('/rest/api/space/SP/permission/abc').set('Authorization', t.adminAuth)).status).toBe(400);
  });

  it('is for administrators: 403 for users, 401 anonymous', async () => {
    const body = { subject: { type: 'user', identifier: 'sp-reader' }, operation: { key: 'create', target: 'space' } };
    expect((await t.http.post('/rest/api/space/SP/permission').set('Authorization', reader.auth).send(body)).status).toBe(403);
    expect((await t.http.post('/rest/api/space/SP/permission').send(body)).status).toBe(401);
    expect((await t.http.delete('/rest/api/space/SP/permission/1').set('Authorization', reader.auth)).status).toBe(403);
    expect((await t.http.delete('/rest/api/space/SP/permission/1')).status).toBe(401);
  });
});

describe('the /rest/api mount', () => {
  it('renders refused credentials and bad JSON in the wiki shape', async () => {
    const wrong = await t.http.get('/rest/api/space/SP').set('Authorization', 'Basic ' + Buffer.from('sp-reader:wrong').toString('base64'));
    expect(wrong.status).toBe(401);
    expect(wrong.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
    expect(wrong.body).toMatchObject({ statusCode: 401, data: { authorized: false }, reason: 'Unauthorized' });
    const badJson = await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).set('Content-Type', 'application/json').send('{"key":');
    expect(badJson.status).toBe(400);
    expect(badJson.body.statusCode).toBe(400);
  });

  it('answers unknown paths with the wiki error shape and leaves /rest/api/2 alone', async () => {
    const res = await t.http.get('/rest/api/nothing').set('Authorization', reader.auth);
    expect(res.status).toBe(404);
    expect(res.body.statusCode).toBe(404);
    const jira = await t.http.get('/rest/api/2/myself').set('Authorization', reader.auth);
    expect(jira.status).toBe(200);
  });
});
