import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContent, createSpace, multiBox } from '../../helpers/wiki-fixtures.ts';

const t = useTestApp();
let writer: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  writer = await t.createUser('cb-writer', { groups: ['cb-team'] });
  stranger = await t.createUser('cb-stranger');
  await createSpace(t, 'CB', { groups: ['cb-team'] }, { groups: ['cb-team'] });
}, 60_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const indexOf = (id: string) =>
  t.services.db.knex('codeboxes').where({ content_id: Number(id) }).orderBy('macro_id').select('macro_id', 'kind', 'parameters', 'sections', 'template', 'error_kind');
const idsIn = (xhtml: string) => [...xhtml.matchAll(/ac:macro-id="([^"]+)"/g)].map((m) => m[1]);

const MULTI = '[alpha]\nhost = a.example.org\n\n[beta]\nhost = b.example.org\n\n[content]\nserver ${host};\n';

describe('code-box index and macro ids', () => {
  it('assigns missing macro ids, keeps given ones, and indexes every kind', async () => {
    const body =
      multiBox('11111111-2222-3333-4444-555555555555', MULTI, { globaltitle: 'Web &amp; mail', lang: 'Apache' }) +
      '<ac:structured-macro ac:name="advanced-single-codeblock-macro"><ac:plain-text-body><![CDATA[echo hi]]></ac:plain-text-body></ac:structured-macro>' +
      '<ac:structured-macro ac:name="advanced-remote-codeblock-macro" ac:macro-id="remote-1"><ac:parameter ac:name="remotefileurl">https://example.org/t</ac:parameter><ac:plain-text-body><![CDATA[[x]\na = 1]]></ac:plain-text-body></ac:structured-macro>' +
      '<ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[not indexed]]></ac:plain-text-body></ac:structured-macro>';
    const page = await createContent(t, writer.auth, { title: 'Boxes', space: 'CB', body });
    const ids = idsIn(page.body.storage.value);
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe('11111111-2222-3333-4444-555555555555');
    expect(ids[1]).toMatch(UUID);
    expect(ids[2]).toBe('remote-1');
    expect(ids[3]).toMatch(UUID);
    const rows = await indexOf(page.id);
    expect(rows).toHaveLength(3);
    const byKind = Object.fromEntries(rows.map((r) => [r.kind, r]));
    expect(byKind['advanced-codeblock-macro']).toEqual({
      macro_id: '11111111-2222-3333-4444-555555555555',
      kind: 'advanced-codeblock-macro',
      parameters: { globaltitle: 'Web & mail', lang: 'Apache' },
      sections: [
        { name: 'alpha', key: 'YWxwaGE=', values: { host: 'a.example.org' } },
        { name: 'beta', key: 'YmV0YQ==', values: { host: 'b.example.org' } },
      ],
      template: 'server ${host};\n',
      error_kind: null,
    });
    expect(byKind['advanced-single-codeblock-macro']).toMatchObject({ macro_id: ids[1], sections: [], template: 'echo hi', error_kind: null });
    expect(byKind['advanced-remote-codeblock-macro']).toMatchObject({
      macro_id: 'remote-1',
      parameters: { remotefileurl: 'https://example.org/t' },
      sections: [{ name: 'x', key: 'eA==', values: { a: '1' } }],
      template: null,
      error_kind: null,
    });
  });

  it('indexes invalid and empty bodies with their error kind; the page still saves', async () => {
    const body = multiBox('bad-1', 'no content marker here') + multiBox('empty-1', '   ');
    const page = await createContent(t, writer.auth, { title: 'Broken boxes', space: 'CB', body });
    const rows = await indexOf(page.id);
    expect(rows).toEqual([
      expect.objectContaining({ macro_id: 'bad-1', error_kind: 'INVALID_MACRO_BODY', sections: [], template: null }),
      expect.objectContaining({ macro_id: 'empty-1', error_kind: 'EMPTY_MACRO_BODY', sections: [], template: null }),
    ]);
  });

  it('finds code boxes nested in layouts and in other macros', async () => {
    const body =
      '<ac:layout><ac:layout-section ac:type="two_equal"><ac:layout-cell>' +
      multiBox('in-layout', MULTI) +
      '</ac:layout-cell><ac:layout-cell><ac:structured-macro ac:name="expand" ac:macro-id="expand-1"><ac:rich-text-body>' +
      multiBox(undefined, '[only]\nk = v\n[content]\n${k}') +
      '</ac:rich-text-body></ac:structured-macro></ac:layout-cell></ac:layout-section></ac:layout>';
    const page = await createContent(t, writer.auth, { title: 'Nested', space: 'CB', body });
    const rows = await indexOf(page.id);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.macro_id)).toContain('in-layout');
    const nested = rows.find((r) => r.macro_id !== 'in-layout');
    expect(nested?.macro_id).toMatch(UUID);
    expect(nested?.sections).toEqual([{ name: 'only', key: 'b25seQ==', values: { k: 'v' } }]);
    expect(nested?.template).toBe('${k}');
  });

  it('gives a later duplicate id a fresh one, so every box stays addressable', async () => {
    const body = multiBox('dup', MULTI) + multiBox('dup', MULTI);
    const page = await createContent(t, writer.auth, { title: 'Dups', space: 'CB', body });
    const ids = idsIn(page.body.storage.value);
    expect(ids[0]).toBe('dup');
    expect(ids[1]).toMatch(UUID);
    expect(await indexOf(page.id)).toHaveLength(2);
  });

  it('replaces the index on update and keeps ids sent back by the client', async () => {
    const created = await createContent(t, writer.auth, { title: 'Evolving', space: 'CB', body: multiBox(undefined, MULTI) });
    const [firstId] = idsIn(created.body.storage.value);
    // The client sends back the stored body (with the id) plus a new box without one.
    const updated = await t.http
      .put(`/rest/api/content/${created.id}`)
      .set('Authorization', writer.auth)
      .send({
        type: 'page',
        title: 'Evolving',
        version: { number: 2 },
        body: { storage: { value: created.body.storage.value.replace('a.example.org', 'a2.example.org') + multiBox(undefined, 'echo') , representation: 'storage' } },
      });
    expect(updated.status).toBe(200);
    const ids = idsIn(updated.body.body.storage.value);
    expect(ids[0]).toBe(firstId);
    expect(ids[1]).toMatch(UUID);
    const rows = await indexOf(created.id);
    expect(rows).toHaveLength(2);
    const kept = rows.find((r) => r.macro_id === firstId);
    expect(kept?.sections[0].values.host).toBe('a2.example.org');
    expect(rows.find((r) => r.macro_id === ids[1])?.error_kind).toBe('INVALID_MACRO_BODY');

    // An update without any box empties the index.
    const third = await t.http
      .put(`/rest/api/content/${created.id}`)
      .set('Authorization', writer.auth)
      .send({ type: 'page', title: 'Evolving', version: { number: 3 }, body: { storage: { value: '<p>none</p>' } } });
    expect(third.status).toBe(200);
    expect(await indexOf(created.id)).toEqual([]);
  });
});

describe('GET /rest/api/content/{id}/history/{version}/macro/id/{macroId}', () => {
  it('answers the macro of the latest (0) and of an older version', async () => {
    const page = await createContent(t, writer.auth, { title: 'Macro history', space: 'CB', body: multiBox('m-1', MULTI, { lang: 'Bash' }) });
    const v2 = multiBox('m-1', '[alpha]\nhost = changed\n[content]\nx', { lang: 'Bash' });
    const put = await t.http
      .put(`/rest/api/content/${page.id}`)
      .set('Authorization', writer.auth)
      .send({ type: 'page', title: 'Macro history', version: { number: 2 }, body: { storage: { value: v2 } } });
    expect(put.status).toBe(200);

    const latest = await t.http.get(`/rest/api/content/${page.id}/history/0/macro/id/m-1`).set('Authorization', writer.auth);
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({ name: 'advanced-codeblock-macro', body: '[alpha]\nhost = changed\n[content]\nx', parameters: { lang: 'Bash' } });
    const old = await t.http.get(`/rest/api/content/${page.id}/history/1/macro/id/m-1`).set('Authorization', await t.tokenFor(writer.name));
    expect(old.status).toBe(200);
    expect(old.body.body).toBe(MULTI);
    expect((await t.http.get(`/rest/api/content/${page.id}/history/2/macro/id/m-1`).set('Authorization', writer.auth)).body.body).toContain('changed');
  });

  it('404 for unknown macro, version, content or a caller who may not view; 400 bad version; 401 anonymous', async () => {
    const page = await createContent(t, writer.auth, { title: 'Macro 404', space: 'CB', body: multiBox('m-2', MULTI) });
    const get = (path: string, auth?: string) => {
      const req = t.http.get(`/rest/api/content/${path}`);
      return auth ? req.set('Authorization', auth) : req;
    };
    expect((await get(`${page.id}/history/0/macro/id/nope`, writer.auth)).status).toBe(404);
    expect((await get(`${page.id}/history/7/macro/id/m-2`, writer.auth)).status).toBe(404);
    expect((await get(`99999999/history/0/macro/id/m-2`, writer.auth)).status).toBe(404);
    expect((await get(`${page.id}/history/0/macro/id/m-2`, stranger.auth)).status).toBe(404);
    expect((await get(`${page.id}/history/0/macro/id/m-2`, t.adminAuth)).status).toBe(404);
    expect((await get(`${page.id}/history/x/macro/id/m-2`, writer.auth)).status).toBe(400);
    expect((await get(`${page.id}/history/0/macro/id/m-2`)).status).toBe(401);
  });
});
