// E1 against the parsing edge cases of real macro bodies, key spellings, asciiOnly and parameter aliases.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { keyOf, WikiFixtures, type CodeboxKind } from '../../helpers/wiki-fixtures.ts';
import { expect500 } from './support.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';

describe('E1 download edge cases', () => {
  const t = useTestApp();
  let fx: WikiFixtures;
  let user: TestUser;
  let pageId: number;

  beforeAll(async () => {
    fx = new WikiFixtures(t);
    user = await t.createUser('edge-reader', { groups: ['edge-team'] });
    const space = await fx.space('EDGE', { groups: ['edge-team'] });
    pageId = await fx.content({ space });
  });

  const box = (body: string | undefined, kind: CodeboxKind = 'advanced-codeblock-macro') => fx.codebox(pageId, kind, body);
  const download = (macroId: string, key: string, extra: Record<string, string> = {}) =>
    t.http.get(E1).query({ key, macroId, contentId: String(pageId), ...extra }).set('Authorization', user.auth);

  it('substitutes per section with CRLF line ends and keeps CRLF in the text', async () => {
    const m = await box('[a]\r\nhost = x.example\r\n\r\n[content]\r\nserver ${host};\r\nend\r\n');
    const res = await download(m, keyOf('a')).expect(200);
    expect(res.text).toBe('server x.example;\r\nend\r\n');
  });

  it('accepts NBSP and spaces after [content], swallowing blank lines but keeping indentation', async () => {
    const m = await box('[a]\nv = 1\n[content]\u00a0 \n\n  indented ${v}\n');
    expect((await download(m, keyOf('a')).expect(200)).text).toBe('  indented 1\n');
  });

  it('finds sections with spaces and umlauts, with and without = padding and in the URL-safe alphabet', async () => {
    const m = await box('[testsystem 1]\nu = one\n[Prüfstand ä]\nu = two\n[~~~]\nu = three\n[>>?]\nu = four\n[content]\n${u}');
    expect((await download(m, 'dGVzdHN5c3RlbSAx').expect(200)).text).toBe('one');
    const umlautKey = keyOf('Prüfstand ä');
    expect(umlautKey.endsWith('=')).toBe(true);
    expect((await download(m, umlautKey).expect(200)).text).toBe('two');
    expect((await download(m, umlautKey.replace(/=+$/, '')).expect(200)).text).toBe('two');
    expect(keyOf('~~~')).toBe('fn5+');
    expect((await download(m, 'fn5-').expect(200)).text).toBe('three');
    expect(keyOf('>>?')).toBe('Pj4/');
    expect((await download(m, 'Pj4_').expect(200)).text).toBe('four');
    // An unencoded `+` in a query string arrives as a space.
    const raw = await t.http.get(`${E1}?key=fn5+&macroId=${m}&contentId=${pageId}`).set('Authorization', user.auth).expect(200);
    expect(raw.text).toBe('three');
  });

  it('finds section names holding quotes, question marks, $ and backslashes literally', async () => {
    const names = ['a "q" ? $n', "it's \\ @.name", '${x}'];
    const m = await box(`${names.map((n, i) => `[${n}]\nv = ${i}\n`).join('')}[content]\n<${'${v}'}>`);
    for (const [i, n] of names.entries()) expect((await download(m, keyOf(n)).expect(200)).text).toBe(`<${i}>`);
    expect500('5', 'E1', await download(m, keyOf('a')), 'INVALID_URL_PARAMETER');
  });

  it('serves the raw template under cmF3 even when a section is named raw', async () => {
    const m = await box('[raw]\nk = v\n[other]\nk = w\n[content]\nT ${k}\n');
    expect((await download(m, 'cmF3').expect(200)).text).toBe('T ${k}\n');
    expect((await download(m, keyOf('other')).expect(200)).text).toBe('T w\n');
  });

  it('leaves unknown variables alone and does not expand substituted values again', async () => {
    const m = await box('[a]\nx = ${y}\ny = no\n[content]\n${x} ${unknown}');
    expect((await download(m, keyOf('a')).expect(200)).text).toBe('${y} ${unknown}');
  });

  it('returns ]]>, &, < and non-ASCII byte for byte as UTF-8', async () => {
    const template = 'a ]]> b && c < d\t\u00e9\u20ac\ud83d\ude00\n';
    const m = await box(`[a]\n[content]\n${template}`);
    const res = await download(m, keyOf('a')).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(template);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(template, 'utf8'));
  });

  it('returns control characters byte for byte as UTF-8', async () => {
    const template = 'a ]]> b && c < d\u0001\u0007\t\u00e9\u20ac\ud83d\ude00\n';
    const m = randomUUID();
    // Written directly: storage XHTML (XML 1.0) cannot carry U+0001 or U+0007, so no save indexes them.
    await t.services.db.knex('codeboxes').insert({
      content_id: pageId,
      macro_id: m,
      kind: 'advanced-codeblock-macro',
      parameters: JSON.stringify({}),
      sections: JSON.stringify([{ name: 'a', key: keyOf('a'), values: {} }]),
      template,
      error_kind: null,
    });
    const res = await download(m, keyOf('a')).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(template);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(template, 'utf8'));
  });

  it('serves a 1 MiB template whole', async () => {
    const line = 'value=${v} padding padding padding padding padding padding\n';
    const template = line.repeat(Math.ceil((1024 * 1024) / line.length)).slice(0, 1024 * 1024);
    const m = await box(`[a]\nv = 42\n[content]\n${template}`);
    const raw = await download(m, 'cmF3').expect(200);
    expect(raw.text.length).toBe(1024 * 1024);
    const sub = await download(m, keyOf('a')).expect(200);
    expect(sub.text.startsWith('value=42 padding')).toBe(true);
    expect(sub.text).not.toContain('${v}');
  });

  it('asciiOnly=true keeps ASCII and ö ä ü ß only; other values leave the text alone', async () => {
    const m = await box('[a]\n[content]\nGrüße – naïve ÄÖÜ 😀 ok\n');
    expect((await download(m, 'cmF3', { asciiOnly: 'true' }).expect(200)).text).toBe('Grüße  nave   ok\n');
    expect((await download(m, 'cmF3', { asciiOnly: 'TRUE' }).expect(200)).text).toBe('Grüße  nave   ok\n');
    expect((await download(m, 'cmF3', { asciiOnly: 'false' }).expect(200)).text).toBe('Grüße – naïve ÄÖÜ 😀 ok\n');
    expect((await download(m, 'cmF3', { asciiOnly: 'yes' }).expect(200)).text).toBe('Grüße – naïve ÄÖÜ 😀 ok\n');
  });

  it('accepts pageId as an alias of contentId; refuses two different ids and repeated parameters', async () => {
    const m = await box('[a]\n[content]\nhello');
    const viaPageId = await t.http.get(E1).query({ key: 'cmF3', macroId: m, pageId: String(pageId) }).set('Authorization', user.auth);
    expect(viaPageId.status).toBe(200);
    expect(viaPageId.text).toBe('hello');
    const same = await download(m, 'cmF3', { pageId: String(pageId) });
    expect(same.status).toBe(200);
    expect500('5', 'E1', await download(m, 'cmF3', { pageId: String(pageId + 1) }), 'INVALID_URL_PARAMETER', 'different');
    const repeated = await t.http.get(`${E1}?key=cmF3&key=cmF3&macroId=${m}&contentId=${pageId}`).set('Authorization', user.auth);
    expect500('5', 'E1', repeated, 'INVALID_URL_PARAMETER', 'once');
    expect500('5', 'E1', await download(m, 'cmF3', { contentId: '9007199254740992' }), 'INVALID_URL_PARAMETER', 'contentId');
    // Unknown extra parameters are ignored.
    expect((await download(m, 'cmF3', { os_authType: 'basic', foo: 'bar' })).status).toBe(200);
  });

  it('answers a key that decodes to U+0000 (or another code point no section name holds) with the parameter error, not a database error', async () => {
    // Issue 26: `key=AA==` reached PostgreSQL, which refuses U+0000 in text: a generic 500_ERROR.
    const m = await box('[a]\nk = v\n[content]\n${k}\n');
    for (const key of ['AA==', 'AA', keyOf('a\u0000b'), keyOf('\u0001')]) {
      expect500('5', 'E1', await download(m, key), 'INVALID_URL_PARAMETER', 'U+00');
      const code = await t.http.get('/rest/advancedcodeblocks/1/code').query({ key, macroId: m, contentId: String(pageId) }).set('Authorization', user.auth);
      expect500('5', 'E1', code, 'INVALID_URL_PARAMETER', 'U+00');
    }
    const raw = await t.http.get(`${E1}?key=AA%3D%3D&macroId=${m}&contentId=${pageId}`).set('Authorization', user.auth);
    expect500('5', 'E1', raw, 'INVALID_URL_PARAMETER', 'U+0000');
  });

  it('serves the single box as its raw block only', async () => {
    const m = await box('echo ${not_substituted}\n', 'advanced-single-codeblock-macro');
    expect((await download(m, 'cmF3').expect(200)).text).toBe('echo ${not_substituted}\n');
    expect500('5', 'E1', await download(m, keyOf('a')), 'INVALID_URL_PARAMETER', 'no section');
  });

  it('answers EMPTY_MACRO_BODY and INVALID_MACRO_BODY for unusable bodies', async () => {
    expect500('5', 'E1', await download(await box('  \n'), 'cmF3'), 'EMPTY_MACRO_BODY');
    expect500('5', 'E1', await download(await box('[a]\nk=v\n[content] no line break'), 'cmF3'), 'INVALID_MACRO_BODY');
  });

  it('answers HEAD like GET without a body', async () => {
    const m = await box('[a]\n[content]\nhead');
    const res = await t.http.head(E1).query({ key: 'cmF3', macroId: m, contentId: String(pageId) }).set('Authorization', user.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('4');
  });
});
