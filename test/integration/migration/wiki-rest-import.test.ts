// End to end: a second wiki of ours, seeded through its REST (with a page and a comment above 2^32 brought in by
// the import document, as a cloud export has them), imported live into a fresh one with importWikiSpaces over
// openWikiRest. Afterwards both servers answer the same content (ids kept, titles, versions, ancestors,
// containers, bodies, restrictions) and E1 downloads by pageId= give the same bytes; a second run is a no-op.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../../src/importer/import.service.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import { openWikiRest } from '../../../src/migration/wiki-rest/wiki-rest-source.ts';
import { importWikiSpaces } from '../../../src/migration/wiki/space-writer.ts';
import { ADMIN, createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { grantSpace, keyOf } from '../../helpers/wiki-fixtures.ts';
import { listenOn, SEED_MACRO, seedSourceWiki, type SeededWiki } from '../../helpers/wiki-rest-seed.ts';

const BIG_PAGE = 2 ** 32 + 17;
const BIG_COMMENT = 2 ** 32 + 18;
const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const BIG_MACRO = '0c0ffee0-2222-4b3c-8d4e-6f7a8b9c0d1e';

const src = useTestApp();
let target: TestApp;
let server: { url: string; close(): Promise<void> };
let seed: SeededWiki;

const live = () => openWikiRest({ url: server.url, auth: { user: ADMIN.name, password: ADMIN.password }, progress: () => undefined });

beforeAll(async () => {
  server = await listenOn(src);
  seed = await seedSourceWiki(src);
  const box = `<ac:structured-macro ac:name="advanced-single-codeblock-macro" ac:macro-id="${BIG_MACRO}"><ac:plain-text-body><![CDATA[echo big\n]]></ac:plain-text-body></ac:structured-macro>`;
  await runImport(
    src.services,
    {
      content: [
        { id: BIG_PAGE, type: 'page', title: 'From the cloud', space: seed.keys.main, parentId: seed.ids.root, body: `<p>Big</p>${box}`, author: 'admin' },
        { id: BIG_COMMENT, type: 'comment', space: seed.keys.main, containerId: BIG_PAGE, body: '<p>Big comment</p>', author: 'admin' },
      ],
    },
    () => undefined,
  );
  target = await createTestApp();
});
afterAll(async () => {
  await server?.close();
  await target?.close();
});

const allIds = () => [...Object.values(seed.ids), BIG_PAGE, BIG_COMMENT];

/** What a reader sees of one content, without what differs between two servers by nature (links, dates). */
async function view(t: TestApp, id: number) {
  const res = await t.http.get(`/rest/api/content/${id}?expand=body.storage,ancestors,container`).set('Authorization', t.adminAuth);
  expect(res.status, `${id}: ${JSON.stringify(res.body)}`).toBe(200);
  const b = res.body;
  const restriction =
    b.type === 'comment'
      ? null
      : (await t.http.get(`/rest/api/content/${id}/restriction/byOperation/read`).set('Authorization', t.adminAuth).expect(200)).body.restrictions;
  return {
    id: b.id,
    type: b.type,
    title: b.title,
    space: b.space.key,
    version: b.version.number,
    body: b.body.storage.value,
    ancestors: b.ancestors.map((a: { id: string }) => a.id),
    container: b.container.id ?? b.container.key,
    restrictedTo: restriction && {
      users: restriction.user.results.map((u: { username: string }) => u.username).sort(),
      groups: restriction.group.results.map((g: { name: string }) => g.name).sort(),
    },
  };
}

describe('import-from wiki (live) into a fresh wiki', () => {
  it('imports both spaces with their ids; both wikis then answer the same content and restrictions', async () => {
    const report = await importWikiSpaces(migrationDeps(target.services), await live(), { spaces: [seed.keys.main, seed.keys.other], dryRun: false, progress: () => undefined });
    expect(report.units.map((u) => [u.name, u.outcome, u.reason])).toEqual([
      [seed.keys.main, 'imported', undefined],
      [seed.keys.other, 'imported', undefined],
    ]);
    expect(report.units[0]!.mapped).toEqual([]);
    // Imported spaces carry no permissions: the administrator grants itself read to compare.
    for (const key of Object.values(seed.keys)) await grantSpace(target, key, { user: 'admin' }, 'read');
    for (const id of allIds()) expect(await view(target, id), String(id)).toEqual(await view(src, id));
  });

  it('answers E1 downloads by pageId= with the same bytes on both wikis', async () => {
    const download = async (t: TestApp, pageId: number, macroId: string, key: string) => {
      const res = await t.http.get(E1).query({ key, macroId, pageId: String(pageId) }).set('Authorization', t.adminAuth);
      expect(res.status, res.text).toBe(200);
      return res.text;
    };
    for (const [id, macro, key] of [
      [seed.ids.root, SEED_MACRO, keyOf('dev')],
      [seed.ids.root, SEED_MACRO, keyOf('raw')],
      [BIG_PAGE, BIG_MACRO, keyOf('raw')],
    ] as const) {
      expect(await download(target, id, macro, key)).toBe(await download(src, id, macro, key));
    }
    expect(await download(target, seed.ids.root, SEED_MACRO, keyOf('dev'))).toBe('host dev.local\n');
  });

  it('a second run changes nothing; a dry run after an edit at the source would import exactly that', async () => {
    const again = await importWikiSpaces(migrationDeps(target.services), await live(), { spaces: [seed.keys.main, seed.keys.other], dryRun: false, progress: () => undefined });
    expect(again.units.map((u) => [u.name, u.outcome])).toEqual([
      [seed.keys.main, 'unchanged'],
      [seed.keys.other, 'unchanged'],
    ]);
    await src.http
      .put(`/rest/api/content/${seed.ids.grandchild}`)
      .set('Authorization', src.adminAuth)
      .send({ type: 'page', title: 'Grandchild', version: { number: 2 }, body: { storage: { value: '<p>Grandchild, edited</p>', representation: 'storage' } } })
      .expect(200);
    const dry = await importWikiSpaces(migrationDeps(target.services), await live(), { spaces: [seed.keys.main], dryRun: true, progress: () => undefined });
    expect(dry.units.map((u) => [u.name, u.outcome])).toEqual([[seed.keys.main, 'would-import']]);
    expect((await view(target, seed.ids.grandchild)).version).toBe(1);
  });
});
