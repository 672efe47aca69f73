// End to end through the wiki host's REST surface: a page saved with storage XHTML is indexed by the wiki,
// downloads follow its edits, its read restriction and its trip to the trash.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { keyOf } from '../../helpers/wiki-fixtures.ts';
import { expect403, expect500 } from './support.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const MACRO = '0b9f5f7e-4a55-4bd4-9a3c-3f1f3b7f0e01';

const storage = (body: string) =>
  `<p>Config</p><ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1" ac:macro-id="${MACRO}">` +
  `<ac:parameter ac:name="globaltitle">Hosts</ac:parameter><ac:plain-text-body><![CDATA[${body}]]></ac:plain-text-body></ac:structured-macro>`;

describe('code-block downloads of content saved through the wiki REST API', () => {
  const t = useTestApp();
  let reader: TestUser;
  let pageId: string;

  beforeAll(async () => {
    reader = await t.createUser('e2e-reader', { groups: ['e2e-team'] });
    await t.createUser('e2e-keeper');
    const admin = (req: ReturnType<TestApp['http']['post']>) => req.set('Authorization', t.adminAuth);
    await admin(t.http.post('/rest/api/space')).send({ key: 'ETOE', name: 'End to end' }).expect(200);
    // Administrators get no implicit view right: the admin that edits the page needs read on the space too.
    for (const group of ['e2e-team', 'administrators']) {
      await admin(t.http.post('/rest/api/space/ETOE/permission'))
        .send({ subject: { type: 'group', identifier: group }, operation: { key: 'read', target: 'space' } })
        .expect(200);
    }
    const page = await admin(t.http.post('/rest/api/content'))
      .send({ type: 'page', title: 'Hosts', space: { key: 'ETOE' }, body: { storage: { value: storage('[dev]\nh = dev.local\n[content]\nhost ${h}\n'), representation: 'storage' } } })
      .expect(200);
    pageId = page.body.id as string;
  });

  const download = (key: string) =>
    t.http.get(E1).query({ key, macroId: MACRO, contentId: pageId }).set('Authorization', reader.auth);

  it('downloads a section of the saved page', async () => {
    const res = await download(keyOf('dev')).expect(200);
    expect(res.text).toBe('host dev.local\n');
  });

  it('follows an edit of the page', async () => {
    await t.http
      .put(`/rest/api/content/${pageId}`)
      .set('Authorization', t.adminAuth)
      .send({ type: 'page', title: 'Hosts', version: { number: 2 }, body: { storage: { value: storage('[dev]\nh = dev2.local\n[content]\nhost ${h}\n'), representation: 'storage' } } })
      .expect(200);
    expect((await download(keyOf('dev')).expect(200)).text).toBe('host dev2.local\n');
  });

  it('answers 403 once a read restriction leaves the reader out, 200 again when lifted', async () => {
    const restrict = (users: string[]) =>
      t.http
        .put(`/rest/api/content/${pageId}/restriction`)
        .set('Authorization', t.adminAuth)
        .send([{ operation: 'read', restrictions: { user: users.map((username) => ({ type: 'known', username })), group: [] } }])
        .expect(200);
    await restrict(['e2e-keeper', 'admin']);
    expect403('5', 'E1', await download('cmF3'), Number(pageId));
    await restrict([]);
    expect((await download('cmF3')).status).toBe(200);
  });

  it('answers 500 once the page is in the trash', async () => {
    await t.http.delete(`/rest/api/content/${pageId}`).set('Authorization', t.adminAuth).expect(204);
    expect500('5', 'E1', await download('cmF3'), 'FETCH_MACRO', 'trash');
  });
});
