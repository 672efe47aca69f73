// E2 and E3 bodies: record, block order, keys, absolute links, escaping, and boxes of every kind.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { keyOf, WikiFixtures } from '../../helpers/wiki-fixtures.ts';
import { fields, parseXml } from './support.ts';

const E2 = '/rest/advancedcodeblocks/1/download_list/xml';
const E3 = '/rest/advancedcodeblocks/1/download_list/json';
const BASE = 'http://wiki.example.test:8090/ctx';

describe('download lists (generation 5)', () => {
  const t = useTestApp({ BASE_URL: BASE, OUTBOUND_ALLOWLIST: '' });
  let fx: WikiFixtures;
  let user: TestUser;
  let space: string;

  beforeAll(async () => {
    fx = new WikiFixtures(t);
    user = await t.createUser('list-reader', { groups: ['list-team'] });
    space = await fx.space('LIST', { groups: ['list-team'] });
  });

  const list = (path: string, contentId: number, macroId: string) =>
    t.http.get(`/ctx${path}`).query({ contentId: String(contentId), macroId }).set('Authorization', user.auth);

  it('E3 lists every section in document order, then raw, with /code links', async () => {
    const page = await fx.content({ space, title: 'Web servers' });
    const m = await fx.codebox(page, 'advanced-codeblock-macro', '[testsystem 1]\na=1\n[zeta]\n[Prüfstand ä]\n[content]\nx', {}, 'mac+ro/1');
    const res = await list(E3, page, m).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const link = (key: string) => `${BASE}/rest/advancedcodeblocks/1/code?key=${encodeURIComponent(key)}&pageId=${page}&macroId=mac%2Bro%2F1`;
    expect(res.body).toEqual({
      content: { contentId: page, contentTitle: 'Web servers', contentType: 'page', spaceKey: 'LIST', macroId: 'mac+ro/1' },
      codeBlocks: [
        { key: 'dGVzdHN5c3RlbSAx', name: 'testsystem 1', download: link('dGVzdHN5c3RlbSAx') },
        { key: 'emV0YQ==', name: 'zeta', download: link('emV0YQ==') },
        { key: keyOf('Prüfstand ä'), name: 'Prüfstand ä', download: link(keyOf('Prüfstand ä')) },
        { key: 'cmF3', name: 'raw', download: link('cmF3') },
      ],
    });
  });

  it('E2 wraps the record in content, escapes & in links and parses as strict XML', async () => {
    // (A control character in a title is refused when saved since the input boundary: xml-escaping.test.ts.)
    const page = await fx.content({ space, title: 'Q&A <1> ]]> "\u{1F600}" done' });
    const m = await fx.codebox(page, 'advanced-codeblock-macro', '[a & b]\n[content]\nx');
    const res = await list(E2, page, m).expect(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.text).toContain(`&amp;pageId=${page}&amp;macroId=`);
    expect(res.text).not.toMatch(/&(?!amp;|lt;|gt;|#)/);
    const root = parseXml(res.text);
    expect(root.name).toBe('advancedCodeblockMacro');
    const [content, codeBlocks] = root.children;
    expect(fields(content!)).toEqual({
      contentId: String(page),
      contentTitle: 'Q&A <1> ]]> "\u{1F600}" done',
      contentType: 'page',
      spaceKey: 'LIST',
      macroId: m,
    });
    expect(codeBlocks!.children.map((b) => fields(b))).toEqual([
      {
        key: keyOf('a & b'),
        name: 'a & b',
        download: `${BASE}/plugins/servlet/advanced-codeblock-macro-downloadcode?key=${encodeURIComponent(keyOf('a & b'))}&pageId=${page}&macroId=${m}`,
      },
      { key: 'cmF3', name: 'raw', download: `${BASE}/plugins/servlet/advanced-codeblock-macro-downloadcode?key=cmF3&pageId=${page}&macroId=${m}` },
    ]);
  });

  it('reports blog posts and comments with their content type', async () => {
    const blog = await fx.content({ space, type: 'blogpost', title: 'News' });
    const comment = await fx.content({ space, type: 'comment', containerId: blog });
    for (const [id, type] of [
      [blog, 'blogpost'],
      [comment, 'comment'],
    ] as const) {
      const m = await fx.codebox(id, 'advanced-codeblock-macro', '[a]\n[content]\nx');
      const res = await list(E3, id, m).expect(200);
      expect(res.body.content.contentType).toBe(type);
    }
  });

  it('lists a single box as raw only, and a remote box without fetching its template', async () => {
    const page = await fx.content({ space });
    const single = await fx.codebox(page, 'advanced-single-codeblock-macro', 'echo hi');
    expect((await list(E3, page, single).expect(200)).body.codeBlocks.map((b: { name: string }) => b.name)).toEqual(['raw']);
    // Nothing is on the allowlist, so a fetch would fail: the list must not need one.
    const remote = await fx.codebox(page, 'advanced-remote-codeblock-macro', '[dev]\nh=1\n[prod]\nh=2', {
      remotefileurl: 'http://127.0.0.1:9/template.txt',
    });
    expect((await list(E3, page, remote).expect(200)).body.codeBlocks.map((b: { name: string }) => b.name)).toEqual(['dev', 'prod', 'raw']);
  });

  it('leaves out a section named raw (its key is the raw template)', async () => {
    const page = await fx.content({ space });
    const m = await fx.codebox(page, 'advanced-codeblock-macro', '[raw]\n[a]\n[content]\nx');
    const names = (await list(E3, page, m).expect(200)).body.codeBlocks.map((b: { name: string }) => b.name);
    expect(names).toEqual(['a', 'raw']);
  });

  it('answers errors in the list format also for a trailing slash or another letter case', async () => {
    const res = await t.http.get('/ctx/rest/advancedcodeblocks/1/Download_List/XML/').expect(401);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(parseXml(res.text).name).toBe('status');
    const unknown = await t.http.get('/ctx/rest/advancedcodeblocks/1/nothing').set('Authorization', user.auth).expect(404);
    expect(unknown.text).toBe('Not found.\n');
  });

  it('lists 50 sections', async () => {
    const page = await fx.content({ space });
    const body = Array.from({ length: 50 }, (_, i) => `[host ${i}]\nname = h${i}\n`).join('') + '[content]\nserver ${name}\n';
    const m = await fx.codebox(page, 'advanced-codeblock-macro', body);
    const blocks = (await list(E3, page, m).expect(200)).body.codeBlocks as { name: string }[];
    expect(blocks).toHaveLength(51);
    expect(blocks[49]!.name).toBe('host 49');
  });
});
