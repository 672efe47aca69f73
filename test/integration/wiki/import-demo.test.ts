import { beforeAll, describe, expect, it } from 'vitest';
import { basic, useTestApp } from '../../helpers/test-app.ts';
import { loadDemo } from '../../../src/demo/demo.ts';
import { runImport } from '../../../src/importer/import.service.ts';
import { DEMO_IDS } from '../../../src/wiki/wiki.demo.ts';
import { createContent } from '../../helpers/wiki-fixtures.ts';

const t = useTestApp();
const alice = basic('alice', 'alice');

beforeAll(async () => {
  await loadDemo(t.services);
}, 60_000);

describe('wiki demo data', () => {
  it('alice reads the demo page, blog post and comment with their fixed macro ids', async () => {
    const page = await t.http.get(`/rest/api/content/${DEMO_IDS.page}?expand=body.storage`).set('Authorization', alice);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ id: String(DEMO_IDS.page), type: 'page', space: { key: 'DEMO' }, version: { by: { username: 'alice' } } });
    expect(page.body.body.storage.value).toContain(DEMO_IDS.pageMacro);
    for (const id of [DEMO_IDS.blogpost, DEMO_IDS.comment]) {
      expect((await t.http.get(`/rest/api/content/${id}`).set('Authorization', alice)).status).toBe(200);
    }
    const macro = await t.http.get(`/rest/api/content/${DEMO_IDS.page}/history/0/macro/id/${DEMO_IDS.pageMacro}`).set('Authorization', alice);
    expect(macro.status).toBe(200);
    expect(macro.body.name).toBe('advanced-codeblock-macro');
  });

  it('indexes the demo code boxes: two sections and a template on the page', async () => {
    const rows = await t.services.db.knex('codeboxes').orderBy('content_id').select('content_id', 'macro_id', 'kind', 'sections', 'template', 'error_kind');
    expect(rows.map((r) => [r.content_id, r.macro_id, r.kind, r.error_kind])).toEqual([
      [DEMO_IDS.page, DEMO_IDS.pageMacro, 'advanced-codeblock-macro', null],
      [DEMO_IDS.blogpost, DEMO_IDS.blogMacro, 'advanced-single-codeblock-macro', null],
      [DEMO_IDS.comment, DEMO_IDS.commentMacro, 'advanced-codeblock-macro', null],
    ]);
    expect(rows[0].sections.map((s: { key: string }) => s.key)).toEqual(['dGVzdHN5c3RlbSAx', 'dGVzdHN5c3RlbSAy']);
    expect(rows[0].template).toContain('ServerName ${base.url}');
  });

  it('the restricted demo page is hidden from alice but visible to the administrator', async () => {
    expect((await t.http.get(`/rest/api/content/${DEMO_IDS.restrictedPage}`).set('Authorization', alice)).status).toBe(404);
    expect((await t.http.get(`/rest/api/content/${DEMO_IDS.restrictedPage}`).set('Authorization', t.adminAuth)).status).toBe(200);
  });

  it('new content gets ids after the fixed ones (the sequence moved on)', async () => {
    const page = await createContent(t, alice, { title: 'After the demo', space: 'DEMO' });
    expect(Number(page.id)).toBeGreaterThan(DEMO_IDS.restrictedPage);
  });

  it('importing the same wiki sections again skips everything', async () => {
    const { wikiDemoSections } = await import('../../../src/wiki/wiki.demo.ts');
    const summary = await runImport(t.services, wikiDemoSections(), () => undefined);
    expect(summary).toMatchObject({
      spaces: { created: 0, skipped: 1 },
      spacePermissions: { created: 0, skipped: 2 },
      content: { created: 0, skipped: 4 },
    });
  });
});

describe('wiki import', () => {
  it('creates content without ids, skips it on a second run, and assigns macro ids', async () => {
    const doc = {
      spaces: [{ key: 'IMP', name: 'Imported', permissions: [{ user: 'alice', operation: 'read' as const }] }],
      content: [
        { type: 'page' as const, title: 'Imported page', space: 'IMP', body: '<ac:structured-macro ac:name="advanced-single-codeblock-macro"><ac:plain-text-body><![CDATA[ls]]></ac:plain-text-body></ac:structured-macro>' },
      ],
    };
    expect(await runImport(t.services, doc, () => undefined)).toMatchObject({ spaces: { created: 1 }, content: { created: 1, skipped: 0 } });
    expect(await runImport(t.services, doc, () => undefined)).toMatchObject({ spaces: { skipped: 1 }, content: { created: 0, skipped: 1 } });
    const row = await t.services.db.knex('contents').where({ title: 'Imported page' }).first();
    const box = await t.services.db.knex('codeboxes').where({ content_id: row.id }).first();
    expect(box.macro_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.body).toContain(box.macro_id);
  });

  it('rejects malformed storage, unknown references and unknown principals; nothing is stored', async () => {
    const bad = [
      { spaces: [{ key: 'BAD1', name: 'x' }], content: [{ type: 'page', title: 'x', space: 'BAD1', body: '<p>' }] },
      { spaces: [{ key: 'BAD2', name: 'x' }], content: [{ type: 'page', title: 'x', space: 'BAD2', parentId: 987654, body: '<p/>' }] },
      { spaces: [{ key: 'BAD3', name: 'x', permissions: [{ group: 'ghosts', operation: 'read' }] }] },
      { spaces: [{ key: 'BAD4', name: 'x' }], content: [{ type: 'comment', space: 'BAD4', body: '<p/>' }] },
      { content: [{ type: 'page', title: 'x', space: 'NOSUCH', body: '<p/>' }] },
    ];
    for (const doc of bad) {
      await expect(runImport(t.services, doc, () => undefined), JSON.stringify(doc)).rejects.toMatchObject({ status: 400 });
    }
    expect(await t.services.db.knex('spaces').where('key', 'like', 'BAD%')).toEqual([]);
  });
});
