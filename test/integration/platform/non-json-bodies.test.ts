// Issue 26, point 3: a body that is not JSON is refused plainly at the input boundary of every JSON API, in that
// API's own error shape: a form-encoded, multipart or text/plain body on a state-changing request without
// `X-Atlassian-Token: no-check` answers 403 "XSRF check failed" (as the tracker host does), with the header 415
// naming application/json. Before, the JSON parser skipped such a body and the route answered as if a member were
// missing (400 "optionvalue is required"), which a client that does not read the status took for success.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Test } from 'supertest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { dataFingerprint } from '../../helpers/db-snapshot.ts';
import { createField, FE, grant, paths } from '../../helpers/tracker-fixtures.ts';

const t = useTestApp();
let bob: TestUser;
let options: string;
/** A field-editor write that takes no form body (form-bodies.test.ts has those that do). */
let contexts: string;

beforeAll(async () => {
  bob = await t.createUser('njb-bob');
  const field = await createField(t);
  await grant(t, field.id, { user: bob.name });
  options = paths(field.id, 'default').options;
  contexts = `${FE}/admin/customfields/${field.id}/contexts`;
});

const NO_CHECK = { 'X-Atlassian-Token': 'no-check' };

async function writesNothing(fn: () => Promise<void>): Promise<void> {
  const before = await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures'] });
  await fn();
  expect(await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures'] })).toEqual(before);
}

/** The three form types, each as a client library sends it. */
const FORMS: { name: string; send: (req: Test) => Test }[] = [
  { name: 'form-encoded', send: (req) => req.type('form').send('disabled=False&optionvalue=alpha&name=alpha') },
  { name: 'multipart', send: (req) => req.field('optionvalue', 'alpha').field('name', 'alpha') },
  { name: 'text/plain', send: (req) => req.set('Content-Type', 'text/plain; charset=utf-8').send('{"optionvalue":"alpha","name":"alpha"}') },
];

/** One state-changing endpoint per JSON API, its caller, and the 403 and 415 bodies in its error shape. */
const APIS = () => [
  {
    api: 'field editor',
    path: contexts,
    auth: t.adminAuth,
    xsrf: { statusCode: 403, subCode: 403004, message: expect.stringMatching(/^XSRF check failed/) },
    unsupported: { statusCode: 415, subCode: 415000, message: expect.stringContaining('application/json') },
  },
  {
    api: 'tracker host',
    path: '/rest/api/2/group',
    auth: t.adminAuth,
    xsrf: { errorMessages: [expect.stringMatching(/^XSRF check failed/)], errors: {} },
    unsupported: { errorMessages: [expect.stringContaining('application/json')], errors: {} },
  },
  {
    api: 'tokens',
    path: '/rest/pat/latest/tokens',
    auth: bob.auth,
    xsrf: { errorMessages: [expect.stringMatching(/^XSRF check failed/)], errors: {} },
    unsupported: { errorMessages: [expect.stringContaining('application/json')], errors: {} },
  },
  {
    api: 'wiki host',
    path: '/rest/api/space',
    auth: t.adminAuth,
    xsrf: { statusCode: 403, data: expect.objectContaining({ authorized: false, successful: false }), message: expect.stringMatching(/^XSRF check failed/), reason: 'Forbidden' },
    unsupported: { statusCode: 415, data: expect.objectContaining({ successful: false }), message: expect.stringContaining('application/json'), reason: 'Unsupported Media Type' },
  },
  {
    api: 'web sessions',
    path: '/rest/auth/1/session',
    auth: undefined,
    xsrf: { errorMessages: [expect.stringMatching(/^XSRF check failed/)], errors: {} },
    unsupported: { errorMessages: [expect.stringContaining('application/json')], errors: {} },
  },
];

describe('a body that is not JSON', () => {
  it.each(['field editor', 'tracker host', 'tokens', 'wiki host', 'web sessions'])('%s: 403 XSRF check failed without X-Atlassian-Token, 415 with it; nothing written', async (name) => {
    const api = APIS().find((a) => a.api === name)!;
    await writesNothing(async () => {
      for (const form of FORMS) {
        const post = () => {
          const req = t.http.post(api.path);
          return api.auth === undefined ? req : req.set('Authorization', api.auth);
        };
        const refused = await form.send(post());
        expect(refused.status, `${form.name}: ${refused.text}`).toBe(403);
        expect(refused.body, form.name).toEqual(api.xsrf);
        const unsupported = await form.send(post().set(NO_CHECK));
        expect(unsupported.status, `${form.name}: ${unsupported.text}`).toBe(415);
        expect(unsupported.body, form.name).toEqual(api.unsupported);
      }
    });
  });

  it('refuses an empty form POST without the header (a forged request needs no body)', async () => {
    const res = await t.http.post(contexts).set('Authorization', t.adminAuth).set('Content-Type', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ subCode: 403004 });
  });

  it('answers 415 for any other non-JSON body, with or without the header; PUT, PATCH and DELETE too', async () => {
    await writesNothing(async () => {
      const xml = await t.http.post('/rest/api/2/group').set('Authorization', t.adminAuth).set('Content-Type', 'application/xml').send('<group name="x"/>');
      expect(xml.status).toBe(415);
      expect(xml.body).toEqual({ errorMessages: [expect.stringContaining('application/xml')], errors: {} });
      const put = await t.http.put(`${FE}/admin/settings`).set('Authorization', t.adminAuth).type('form').send('onlyAdminsMayDeleteOptions=true');
      expect(put.status).toBe(403);
      const patch = await t.http.patch(`${FE}/admin/customfields/1`).set('Authorization', t.adminAuth).set(NO_CHECK).type('form').send('user=x');
      expect(patch.status).toBe(415);
      const del = await t.http.delete(`${options}/1`).set('Authorization', bob.auth).set('Content-Type', 'text/plain');
      expect(del.status).toBe(403);
    });
  });

  it('still takes JSON (with a charset), bodies without a Content-Type, and a form type on a request without a body when the header is sent', async () => {
    const created = await t.http.post(options).set('Authorization', bob.auth).set('Content-Type', 'application/json; charset=utf-8').send('{"optionvalue":"json"}');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ optionvalue: 'json' });
    const deleted = await t.http.delete(`${options}/${created.body.id}`).set('Authorization', bob.auth).set(NO_CHECK).set('Content-Type', 'application/x-www-form-urlencoded');
    expect(deleted.status).toBe(200);
    // A GET with a form type is no state change.
    const list = await t.http.get(options).set('Authorization', bob.auth).set('Content-Type', 'text/plain');
    expect(list.status).toBe(200);
  });

  it('leaves the code-block API as it was: it takes no bodies, an unknown POST is its 404', async () => {
    const res = await t.http.post('/rest/advancedcodeblocks/1/download_code/plain_text').set('Authorization', bob.auth).type('form').send('key=cmF3');
    expect(res.status).toBe(404);
    expect(res.text).toBe('Not found.\n');
  });

  it('checks the credential first: a wrong password is still a 401', async () => {
    const res = await t.http.post(options).set('Authorization', `Basic ${Buffer.from('njb-nobody:wrong').toString('base64')}`).type('form').send('optionvalue=alpha');
    expect(res.status).toBe(401);
  });
});
