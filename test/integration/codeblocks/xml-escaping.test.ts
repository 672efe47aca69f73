// Issue 10, point 2: every XML body is written by one escaping function, text escaped exactly once. Pages
// saved through the wiki REST with titles, section names and macro ids that look like entities, character
// references, CDATA ends, quotes and astral characters are listed as XML and JSON, member by member equal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContent, createSpace } from '../../helpers/wiki-fixtures.ts';
import { fields, parseXml } from './support.ts';

let t: TestApp;
let writer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.createUser('xe-writer', { groups: ['xe-team'] });
  await createSpace(t, 'XE', { groups: ['xe-team'] }, { groups: ['xe-team'] });
}, 60_000);

afterAll(async () => {
  await t.close();
});

const XML_LIST = '/rest/advancedcodeblocks/1/download_list/xml';
const JSON_LIST = '/rest/advancedcodeblocks/1/download_list/json';

/** Storage XHTML for a text: the XHTML layer's own escaping (the stored value is the unescaped text). */
const xhtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function box(macroId: string, sections: string[]): string {
  const config = sections.map((s) => `[${s}]\nk = v\n`).join('\n');
  return `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:macro-id="${xhtml(macroId)}"><ac:plain-text-body>${xhtml(
    `${config}\n[content]\necho \${k}\n`,
  )}</ac:plain-text-body></ac:structured-macro>`;
}

const TRICKY = [
  'Terms &copy; 2024, R&D; and &foo;',
  'Tom &amp; Jerry',
  'zero &#0; and &#x41; and &#65;',
  'ends ]]> here',
  `quotes " and ' both`,
  'astral 😀 𝄞 and <tag>',
];

async function lists(contentId: string, macroId: string) {
  const q = { contentId, macroId };
  const xml = await t.http.get(XML_LIST).query(q).set('Authorization', writer.auth);
  const json = await t.http.get(JSON_LIST).query(q).set('Authorization', writer.auth);
  expect(xml.status, xml.text).toBe(200);
  expect(json.status, json.text).toBe(200);
  return { xml: parseXml(xml.text), json: json.body as { content: Record<string, unknown>; codeBlocks: Record<string, unknown>[] }, rawXml: xml.text };
}

describe('XML and JSON lists of tricky titles, section names and macro ids', () => {
  for (const [i, text] of TRICKY.entries()) {
    it(`lists ${JSON.stringify(text)} identically in XML and JSON`, async () => {
      const macroId = `id&#65;x-${i}-${text}`.slice(0, 200);
      const page = await createContent(t, writer.auth, { title: text, space: 'XE', body: box(macroId, [text, `R&amp;D ${i}`]) });
      const { xml, json, rawXml } = await lists(page.id, macroId);
      expect(rawXml).not.toContain('<![CDATA[');
      const content = fields(xml.children.find((c) => c.name === 'content')!);
      // Member by member: the XML text equals the JSON string, and both equal what was saved.
      expect(content).toEqual(Object.fromEntries(Object.entries(json.content).map(([k, v]) => [k, String(v)])));
      expect(json.content.contentTitle).toBe(text);
      expect(json.content.macroId).toBe(macroId);
      // The links differ by design (XML: the servlet path, JSON: /code); their queries are the same.
      const query = (link: unknown) => String(link).slice(String(link).indexOf('?'));
      const xmlBlocks = xml.children.find((c) => c.name === 'codeBlocks')!.children.map(fields);
      expect(xmlBlocks.map((b) => ({ ...b, download: query(b.download) }))).toEqual(json.codeBlocks.map((b) => ({ ...b, download: query(b.download) })));
      expect(json.codeBlocks.map((b) => b.name)).toEqual([text, `R&amp;D ${i}`, 'raw']);
    });
  }

  it('names a section [R&amp;D] the same in both lists', async () => {
    const page = await createContent(t, writer.auth, { title: 'sections', space: 'XE', body: box('sect-1', ['R&amp;D']) });
    const { xml, json } = await lists(page.id, 'sect-1');
    const names = xml.children.find((c) => c.name === 'codeBlocks')!.children.map((b) => fields(b).name);
    expect(names).toEqual(['R&amp;D', 'raw']);
    expect(json.codeBlocks.map((b) => b.name)).toEqual(['R&amp;D', 'raw']);
  });

  it('echoes a macroId that looks like an entity in a well-formed error body', async () => {
    const page = await createContent(t, writer.auth, { title: 'echo', space: 'XE', body: '<p/>' });
    const res = await t.http.get(`${XML_LIST}?contentId=${page.id}&macroId=%26foo%3B`).set('Authorization', writer.auth);
    expect(res.status).toBe(500);
    const body = fields(parseXml(res.text));
    expect(body.error).toBe('500_ERROR_FETCH_MACRO_EXCEPTION');
    expect(body.extraMessage).toContain('&foo;');
    expect(res.text).toContain('&amp;foo;');
  });

  it('refuses titles, section names and macro ids that XML 1.0 cannot hold, and stores nothing', async () => {
    const before = await t.services.db.knex('contents').count({ n: '*' }).first();
    const bad = [
      { title: 'a\u0001b', body: '<p/>' },
      { title: 'a\uFFFEb', body: '<p/>' },
      { title: 'lone \uD800 surrogate', body: '<p/>' },
      { title: 'ok', body: box('m\u0002', ['s']) },
      { title: 'ok', body: box('m', ['s\u000B']) },
      { title: 'ok', body: box('m', ['s&#1;']).replace('s&amp;#1;', 's&#1;') },
      { title: 'ok', body: box('m&#0;', ['s']).replace('m&amp;#0;', 'm&#0;') },
    ];
    for (const b of bad) {
      const res = await t.http
        .post('/rest/api/content')
        .set('Authorization', writer.auth)
        .send({ type: 'page', title: b.title, space: { key: 'XE' }, body: { storage: { value: b.body, representation: 'storage' } } });
      expect(res.status, JSON.stringify(b)).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, data: { valid: false } });
    }
    const after = await t.services.db.knex('contents').count({ n: '*' }).first();
    expect(after).toEqual(before);
  });
});
