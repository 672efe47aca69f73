// Issue 10, point 1: the findings of the malformed-request run, one regression test each. Every answer is in
// the API's own error shape, never a 500 the interface does not document, and nothing is written.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { dataFingerprint } from '../../helpers/db-snapshot.ts';
import { createField } from '../../helpers/tracker-fixtures.ts';
import { createContent, createSpace, multiBox } from '../../helpers/wiki-fixtures.ts';
import { fields, parseXml } from '../codeblocks/support.ts';

let t: TestApp;
let user: TestUser;
let fieldId: number;
let pageId: string;

beforeAll(async () => {
  t = await createTestApp();
  user = await t.createUser('ib-user', { groups: ['ib-team'] });
  await createSpace(t, 'IB', { groups: ['ib-team'] }, { groups: ['ib-team'] });
  pageId = (await createContent(t, user.auth, { title: 'Boundary', space: 'IB', body: multiBox('ib-box', '[a]\nk = v\n\n[content]\n${k}\n') })).id;
  fieldId = (await createField(t, { type: 'singleselect' })).id;
}, 60_000);

afterAll(async () => {
  await t.close();
});

/** superagent would JSON-encode a Buffer sent as application/json; these tests send the bytes as they are. */
const raw = (body: unknown) => body as string;

const hostShape = { errorMessages: expect.any(Array), errors: expect.any(Object) };
const wikiShape = (status: number) => ({ statusCode: status, data: expect.objectContaining({ successful: false }), message: expect.any(String), reason: expect.any(String) });
const fieldEditorShape = (status: number) => ({ statusCode: status, subCode: expect.any(Number), message: expect.any(String) });

/** Runs `fn` and asserts that no table changed. */
async function writesNothing(fn: () => Promise<void>): Promise<void> {
  const before = await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures'] });
  await fn();
  expect(await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures'] })).toEqual(before);
}

describe('path segments that do not decode', () => {
  it('answer 400 in the host shape (tokens)', async () => {
    await writesNothing(async () => {
      for (const method of ['get', 'delete'] as const) {
        const res = await t.http[method]('/rest/pat/latest/tokens/%zz').set('Authorization', user.auth);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(hostShape);
        expect(JSON.stringify(res.body)).toContain('percent-encoding');
      }
    });
  });

  it('answer 400 in the wiki shape (content/%)', async () => {
    const res = await t.http.get('/rest/api/content/%').set('Authorization', user.auth);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(wikiShape(400));
    expect(res.body.data.valid).toBe(false);
  });

  it('answer 400 in the field-editor shape (PUT customfields/%zz)', async () => {
    await writesNothing(async () => {
      const res = await t.http.put('/rest/trackercustomfieldeditorplugin/1/admin/customfields/%zz').set('Authorization', t.adminAuth).send({});
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ...fieldEditorShape(400), errors: [expect.objectContaining({ name: 'path' })] });
    });
  });

  it('answer 400 from the router too (a segment decoded by a route parameter)', async () => {
    // Express's own "Failed to decode param" URIError, reached through a route: also a 400.
    const res = await t.http.delete('/rest/api/space/IB/permission/%E0%A4%A').set('Authorization', t.adminAuth);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(wikiShape(400));
  });
});

describe('bodies that are not what their headers say', () => {
  it('a Content-Encoding: gzip body that is not gzip answers 400', async () => {
    await writesNothing(async () => {
      const res = await t.http
        .post('/rest/api/2/group')
        .set('Authorization', t.adminAuth)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('{"name":"not-gzip"}');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(hostShape);
    });
  });

  it('a truncated gzip body answers 400, a real one is read', async () => {
    const zipped = gzipSync(Buffer.from('{"name":"gzip-group"}'));
    const truncated = await t.http
      .post('/rest/api/2/group')
      .set('Authorization', t.adminAuth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(raw)
      .send(zipped.subarray(0, zipped.length - 6));
    expect(truncated.status).toBe(400);
    const ok = await t.http
      .post('/rest/api/2/group')
      .set('Authorization', t.adminAuth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(raw)
      .send(zipped);
    expect(ok.status).toBe(201);
  });

  it('an encoding the server does not take answers 415; a charset it does not know 415', async () => {
    await writesNothing(async () => {
      const enc = await t.http
        .post('/rest/api/content')
        .set('Authorization', user.auth)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('{}');
      expect(enc.status).toBe(415);
      expect(enc.body).toMatchObject(wikiShape(415));
      const charset = await t.http
        .post('/rest/api/2/group')
        .set('Authorization', t.adminAuth)
        .set('Content-Type', 'application/json; charset=x-unknown')
        .send('{"name":"x"}');
      expect(charset.status).toBe(415);
      expect(charset.body).toEqual(hostShape);
    });
  });

  it('bytes that are not UTF-8 answer 400', async () => {
    await writesNothing(async () => {
      const res = await t.http
        .post('/rest/api/2/group')
        .set('Authorization', t.adminAuth)
        .set('Content-Type', 'application/json')
        .serialize(raw)
        .send(Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]));
      expect(res.status).toBe(400);
      expect(res.body.errorMessages[0]).toContain('UTF-8');
    });
  });
});

describe('U+0000 and other code points that cannot be stored', () => {
  it('in a JSON member: 400 naming the member (wiki title)', async () => {
    await writesNothing(async () => {
      const res = await t.http
        .post('/rest/api/content')
        .set('Authorization', user.auth)
        .send({ type: 'page', title: 'a\u0000b', space: { key: 'IB' }, body: { storage: { value: '<p/>' } } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(wikiShape(400));
      expect(res.body.data.errors[0].message.key).toBe('title');
      expect(res.body.message).toContain('U+0000');
    });
  });

  it('in nested members and option values (field editor, host)', async () => {
    await writesNothing(async () => {
      const option = await t.http
        .post(`/rest/trackercustomfieldeditorplugin/1/user/customfields/${fieldId}/contexts/default/options`)
        .set('Authorization', t.adminAuth)
        .send({ optionvalue: 'x\u0000' });
      expect(option.status).toBe(400);
      expect(option.body).toMatchObject({ ...fieldEditorShape(400), errors: [expect.objectContaining({ name: 'optionvalue' })] });
      const created = await t.http.post('/rest/api/2/user').set('Authorization', t.adminAuth).send({ name: 'nul', password: 'p\u0000w' });
      expect(created.status).toBe(400);
      expect(created.body.errors).toHaveProperty('password');
      const nested = await t.http
        .put(`/rest/api/content/${pageId}/restriction`)
        .set('Authorization', user.auth)
        .send([{ operation: 'read', restrictions: { user: [{ username: 'x\uFFFF' }] } }]);
      expect(nested.status).toBe(400);
      expect(nested.body.data.errors[0].message.key).toBe('0.restrictions.user.0.username');
    });
  });

  it('in query values: filter, username (400 in each shape)', async () => {
    const filter = await t.http.get('/rest/trackercustomfieldeditorplugin/1/admin/customfields?filter=%00').set('Authorization', t.adminAuth);
    expect(filter.status).toBe(400);
    expect(filter.body).toMatchObject({ ...fieldEditorShape(400), errors: [expect.objectContaining({ name: 'filter' })] });
    const username = await t.http.get('/rest/api/2/user/search?username=%00').set('Authorization', user.auth);
    expect(username.status).toBe(400);
    expect(username.body.errors).toHaveProperty('username');
    const surrogate = await t.http.get('/rest/api/2/user/search?username=%ED%A0%80').set('Authorization', user.auth);
    // %ED%A0%80 is not UTF-8 (an encoded surrogate): querystring keeps it raw, so it is ordinary text.
    expect(surrogate.status).toBe(200);
  });

  it('in a path segment: 400 naming the path', async () => {
    const res = await t.http.get('/rest/api/content/1%00').set('Authorization', user.auth);
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0].message.key).toBe('path');
  });

  it('on the code-block API: the documented 500 INVALID_URL_PARAMETER, in XML, JSON and text', async () => {
    const q = `contentId=${pageId}&macroId=%00`;
    const xml = await t.http.get(`/rest/advancedcodeblocks/1/download_list/xml?${q}`).set('Authorization', user.auth);
    expect(xml.status).toBe(500);
    const body = fields(parseXml(xml.text));
    expect(body).toMatchObject({ error: '500_ERROR_INVALID_URL_PARAMETER_EXCEPTION', message: 'Did you provide valid URL-Parameters?' });
    expect(body.extraMessage).toContain('macroId');
    const json = await t.http.get(`/rest/advancedcodeblocks/1/download_list/json?${q}`).set('Authorization', user.auth);
    expect(json.status).toBe(500);
    expect(json.body.error).toBe('500_ERROR_INVALID_URL_PARAMETER_EXCEPTION');
    const text = await t.http.get(`/rest/advancedcodeblocks/1/download_code/plain_text?${q}&key=cmF3`).set('Authorization', user.auth);
    expect(text.status).toBe(500);
    expect(text.text).toContain('500_ERROR_INVALID_URL_PARAMETER_EXCEPTION');
  });
});

describe('malformed credentials of any size', () => {
  it('a Basic name of 200 × İ (400 characters in lower case) answers 401 with X-Seraph-LoginReason', async () => {
    const auth = `Basic ${Buffer.from(`${'İ'.repeat(200)}:pw`).toString('base64')}`;
    for (const path of ['/rest/api/2/myself', '/rest/api/space', '/rest/advancedcodeblocks/1/download_list/json?contentId=1&macroId=x']) {
      const res = await t.http.get(path).set('Authorization', auth);
      expect(res.status, path).toBe(401);
      expect(res.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
    }
  });

  it('refuses to create a user whose lower-case name is longer than 255 characters', async () => {
    const res = await t.http.post('/rest/api/2/user').set('Authorization', t.adminAuth).send({ name: 'İ'.repeat(200), password: 'pw' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('name');
  });

  it('odd headers of every size answer 401 with the usual body', async () => {
    for (const header of ['Basic', 'Basic !!!', `Basic ${'A'.repeat(9000)}`, 'Bearer', `Bearer ${'x'.repeat(5000)}`, 'Digest x', 'Basic Og==']) {
      const res = await t.http.get('/rest/api/2/myself').set('Authorization', header);
      expect(res.status, header.slice(0, 20)).toBe(401);
      expect(res.body).toEqual(hostShape);
      expect(res.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
    }
  });
});
