// Issue 10, point 3 as scripts written for the wiki host use it: one administrator creates a space, a page,
// a child page, a comment and an update, then trashes the page and deletes the space, and every code box
// is downloaded (E1, E2, E3) after each step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { multiBox } from '../../helpers/wiki-fixtures.ts';
import { fields, parseXml } from './support.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);

afterAll(async () => {
  await t.close();
});

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const E2 = '/rest/advancedcodeblocks/1/download_list/xml';
const E3 = '/rest/advancedcodeblocks/1/download_list/json';
const key = (name: string) => Buffer.from(name).toString('base64');

interface Box {
  contentId: string;
  macroId: string;
  section: string;
  text: string;
}

/** Every box downloads its section's text and is listed in XML and JSON with the same blocks. */
async function expectDownloads(boxes: Box[]): Promise<void> {
  for (const b of boxes) {
    const q = { contentId: b.contentId, macroId: b.macroId };
    const text = await t.http.get(E1).query({ ...q, key: key(b.section) }).set('Authorization', t.adminAuth);
    expect(text.status, `${b.contentId} ${text.text}`).toBe(200);
    expect(text.text).toBe(b.text);
    const xml = await t.http.get(E2).query(q).set('Authorization', t.adminAuth);
    expect(xml.status).toBe(200);
    const xmlNames = parseXml(xml.text).children.find((c) => c.name === 'codeBlocks')!.children.map((c) => fields(c).name);
    const json = await t.http.get(E3).query(q).set('Authorization', t.adminAuth);
    expect(json.status).toBe(200);
    expect(json.body.codeBlocks.map((c: { name: string }) => c.name)).toEqual(xmlNames);
    expect(xmlNames).toEqual([b.section, 'raw']);
  }
}

/** Every box answers as trashed content does: 500 FETCH_MACRO in each format. */
async function expectTrashed(boxes: Box[]): Promise<void> {
  for (const b of boxes) {
    const q = { contentId: b.contentId, macroId: b.macroId };
    const text = await t.http.get(E1).query({ ...q, key: key(b.section) }).set('Authorization', t.adminAuth);
    expect(text.status).toBe(500);
    expect(text.text).toContain('500_ERROR_FETCH_MACRO_EXCEPTION');
    const xml = await t.http.get(E2).query(q).set('Authorization', t.adminAuth);
    expect(xml.status).toBe(500);
    expect(fields(parseXml(xml.text)).error).toBe('500_ERROR_FETCH_MACRO_EXCEPTION');
    const json = await t.http.get(E3).query(q).set('Authorization', t.adminAuth);
    expect(json.status).toBe(500);
    expect(json.body.error).toBe('500_ERROR_FETCH_MACRO_EXCEPTION');
  }
}

const storage = (value: string) => ({ storage: { value, representation: 'storage' } });
const boxBody = (macroId: string, section: string, host: string) => multiBox(macroId, `[${section}]\nhost = ${host}\n\n[content]\nssh \${host}\n`);

describe('an administrator sets up a space as on the wiki host', () => {
  it('creates, comments, updates, trashes and deletes, with downloads checked after each step', async () => {
    const admin = t.adminAuth;
    const post = (body: object) => t.http.post('/rest/api/content').set('Authorization', admin).send(body);

    const space = await t.http.post('/rest/api/space').set('Authorization', admin).send({ key: 'ADM', name: 'Admin space' });
    expect(space.status).toBe(200);
    expect((await t.http.get('/rest/api/space/ADM').set('Authorization', admin)).status).toBe(200);

    const page = await post({ type: 'page', title: 'Servers', space: { key: 'ADM' }, body: storage(boxBody('adm-page', 'prod', 'p1')) });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const pageBox: Box = { contentId: page.body.id, macroId: 'adm-page', section: 'prod', text: 'ssh p1\n' };
    await expectDownloads([pageBox]);

    const child = await post({ type: 'page', title: 'Child', space: { key: 'ADM' }, ancestors: [{ id: page.body.id }], body: storage(boxBody('adm-child', 'test', 'c1')) });
    expect(child.status, JSON.stringify(child.body)).toBe(200);
    const childBox: Box = { contentId: child.body.id, macroId: 'adm-child', section: 'test', text: 'ssh c1\n' };
    await expectDownloads([pageBox, childBox]);

    const comment = await post({ type: 'comment', space: { key: 'ADM' }, container: { id: page.body.id, type: 'page' }, body: storage(boxBody('adm-comment', 'note', 'n1')) });
    expect(comment.status, JSON.stringify(comment.body)).toBe(200);
    const commentBox: Box = { contentId: comment.body.id, macroId: 'adm-comment', section: 'note', text: 'ssh n1\n' };
    await expectDownloads([pageBox, childBox, commentBox]);

    const blog = await post({ type: 'blogpost', title: 'News', space: { key: 'ADM' }, body: storage(boxBody('adm-blog', 'news', 'b1')) });
    expect(blog.status).toBe(200);
    const blogBox: Box = { contentId: blog.body.id, macroId: 'adm-blog', section: 'news', text: 'ssh b1\n' };

    const update = await t.http
      .put(`/rest/api/content/${page.body.id}`)
      .set('Authorization', admin)
      .send({ type: 'page', title: 'Servers', version: { number: 2 }, body: storage(boxBody('adm-page', 'prod', 'p2')) });
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    pageBox.text = 'ssh p2\n';
    await expectDownloads([pageBox, childBox, commentBox, blogBox]);

    // The administrator may also restrict what it created, and still read it (it is in the restriction).
    const restrict = await t.http
      .put(`/rest/api/content/${child.body.id}/restriction`)
      .set('Authorization', admin)
      .send([{ operation: 'read', restrictions: { user: [{ username: 'admin' }] } }]);
    expect(restrict.status).toBe(200);
    await expectDownloads([childBox]);

    expect((await t.http.delete(`/rest/api/content/${page.body.id}`).set('Authorization', admin)).status).toBe(204);
    await expectTrashed([pageBox, childBox, commentBox]);
    await expectDownloads([blogBox]);

    expect((await t.http.delete('/rest/api/space/ADM').set('Authorization', admin)).status).toBe(204);
    await expectTrashed([pageBox, childBox, commentBox, blogBox]);
  });
});
