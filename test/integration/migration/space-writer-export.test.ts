// End to end from a space export built as real exports are (test/helpers/wiki-export-builder.ts, ids above 2^31):
// the export reader hands the space to the space writer, and every code box of the imported page answers E1
// by `pageId=` and `macroId=` with the same bytes as the same storage body saved through our REST (the
// reference the original add-on's downloads are tested against). A page tree, restricted pages, users without
// a password, and a re-run that is a no-op.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { codeboxMacro, createContent, createSpace, grantSpace, keyOf, multiBox } from '../../helpers/wiki-fixtures.ts';
import { exportedId, writeExportZip, type ExportDescription } from '../../helpers/wiki-export-builder.ts';
import { openWikiExportSource } from '../../../src/migration/import-sources.ts';
import { importWikiSpaces } from '../../../src/migration/wiki/space-writer.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import type { MigrationReport } from '../../../src/migration/report.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const id = (n: number) => `7e1d0000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Every code-block macro form the storage parser and the code-box parser know, in one body. */
const EVERY_FORM =
  '<p>All the forms</p>' +
  // A multi-section box, CDATA body, with its id.
  multiBox(id(1), '[dev]\nhost = dev.local\nport = 80\n[prod]\nhost = prod.example\nport = 443\n[content]\nserver ${host}:${port}\n', { globaltitle: 'Hosts' }) +
  // The same kind as escaped text, with CR LF, an ampersand and a `]]>` in the template.
  codeboxMacro('advanced-codeblock-macro', '[a]\nv = 1 & 2\n[content]\nline ${v}\r\nend ]]> here\n', {}, id(2)) +
  // A CDATA body that holds `]]>` (split across two CDATA sections, as the editor writes it).
  `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1" ac:macro-id="${id(3)}"><ac:plain-text-body><![CDATA[[x]\nk = a]]]]><![CDATA[>b\n[content]\nk=\${k}\n]]></ac:plain-text-body></ac:structured-macro>` +
  // The single box: the template only.
  codeboxMacro('advanced-single-codeblock-macro', 'echo "single"\n', { title: 'Single' }, id(4)) +
  // A remote box (config only; its template is fetched at download time).
  codeboxMacro('advanced-remote-codeblock-macro', '[r]\nz = 9\n', { remotefileurl: 'https://templates.invalid/t.txt' }, id(5)) +
  // A box nested in another macro's rich-text body.
  `<ac:structured-macro ac:name="expand" ac:schema-version="1" ac:macro-id="${id(6)}"><ac:rich-text-body><p>inside</p>${multiBox(id(7), '[in]\nn = nested\n[content]\n${n}\n')}</ac:rich-text-body></ac:structured-macro>` +
  // A box whose body the code-box parser refuses (no [content]): indexed with its error, the download answers it.
  multiBox(id(8), '[only]\nconfig = yes\n');

/** Section keys to download per macro id (the raw block is `raw`). */
const DOWNLOADS: [string, string[]][] = [
  [id(1), ['dev', 'prod', 'raw']],
  [id(2), ['a', 'raw']],
  [id(3), ['x', 'raw']],
  [id(4), ['raw']],
  [id(7), ['in', 'raw']],
  [id(8), ['raw']],
];

describe('import of a built space export, end to end', () => {
  const t = useTestApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-export-e2e-'));
  const file = path.join(dir, 'space-export.zip');
  const desc: ExportDescription = {
    quirks: { bigIds: true },
    users: [{ name: 'exp-carol', displayName: 'Carol', email: 'carol@old.example' }],
    groups: [{ name: 'exp-ops', members: ['exp-carol', 'exp-dave'] }],
    spaces: [
      {
        id: 11,
        key: 'EXP',
        name: 'Exported',
        description: 'Came from the old wiki',
        homePageId: 100,
        pages: [
          {
            id: 100,
            title: 'Home',
            body: '<p>home</p>',
            version: 3,
            creator: 'exp-carol',
            children: [
              { id: 101, title: 'Every form', body: EVERY_FORM, position: 1, version: 2, comments: [{ id: 150, body: '<p>nice</p>', creator: 'exp-dave' }] },
              { id: 102, title: 'Secret', body: '<p>ops only</p>', position: 0, view: { groups: ['exp-ops'] }, edit: { users: ['exp-carol'] } },
            ],
          },
        ],
        blogPosts: [{ id: 200, title: 'News', body: '<p>news</p>' }],
      },
    ],
  };
  let reader: TestUser;
  let referenceId: string;
  let report: MigrationReport;
  const run = async (dryRun = false) => {
    const source = await openWikiExportSource(file, { progress: () => undefined });
    try {
      return await importWikiSpaces(migrationDeps(t.services), source, { dryRun, progress: () => undefined });
    } finally {
      await source.close();
    }
  };

  beforeAll(async () => {
    writeExportZip(file, desc);
    reader = await t.createUser('exp-reader', { groups: ['exp-readers'] });
    // The reference: the same body saved through our REST, as the original's downloads are tested against.
    await createSpace(t, 'EXPREF', { groups: ['exp-readers'] }, { users: ['admin'] });
    referenceId = (await createContent(t, t.adminAuth, { space: 'EXPREF', title: 'Reference', body: EVERY_FORM })).id;
    report = await run();
    await grantSpace(t, 'EXP', { group: 'exp-readers' }, 'read');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports the space with its ids kept, and reports what it did not import', () => {
    const unit = report.units[0]!;
    expect(unit).toMatchObject({ name: 'EXP', outcome: 'imported', mapped: [] });
    expect(unit.counts).toMatchObject({ pages: { created: 3 }, 'blog posts': { created: 1 }, comments: { created: 1 } });
    expect(report.usersWithoutPassword).toEqual(expect.arrayContaining(['exp-carol', 'exp-dave']));
  });

  it("keeps the space's home page from the export", async () => {
    const space = (await t.http.get('/rest/api/space/EXP').query({ expand: 'homepage' }).set('Authorization', reader.auth).expect(200)).body as { homepage?: { id: string; title: string } };
    expect(space.homepage).toMatchObject({ id: String(exportedId(desc, 100)), title: 'Home' });
  });

  it('answers every code box by pageId and macroId with the bytes of the same body saved through REST', async () => {
    const pageId = exportedId(desc, 101);
    expect(pageId).toBeGreaterThan(2 ** 31);
    for (const [macroId, sections] of DOWNLOADS) {
      for (const section of sections) {
        const key = section === 'raw' ? 'cmF3' : keyOf(section);
        const imported = await t.http.get(E1).query({ key, macroId, pageId }).set('Authorization', reader.auth);
        const reference = await t.http.get(E1).query({ key, macroId, pageId: referenceId }).set('Authorization', reader.auth);
        const what = `${macroId} ${section}`;
        expect(imported.status, what).toBe(reference.status);
        expect(imported.headers['content-type'], what).toBe(reference.headers['content-type']);
        expect(Buffer.from(imported.text ?? '').equals(Buffer.from(reference.text ?? '')), what).toBe(true);
      }
    }
    const dev = await t.http.get(E1).query({ key: keyOf('dev'), macroId: id(1), pageId }).set('Authorization', reader.auth).expect(200);
    expect(dev.text).toBe('server dev.local:80\n');
    // The remote box is indexed like the reference's (its template is fetched only at download time).
    const kinds = async (contentId: number | string) =>
      (await t.services.db.knex('codeboxes').where({ content_id: contentId }).orderBy('macro_id').select('macro_id', 'kind', 'error_kind')) as unknown[];
    expect(await kinds(pageId)).toEqual(await kinds(referenceId));
  });

  it('keeps the page tree, positions and the view restriction', async () => {
    const rows = await t.services.db.knex('contents').whereIn('id', [100, 101, 102].map((n) => exportedId(desc, n))).orderBy('id');
    expect(rows.map((r) => [Number(r.id), r.parent_id === null ? null : Number(r.parent_id), r.position])).toEqual([
      [exportedId(desc, 100), null, null],
      [exportedId(desc, 101), exportedId(desc, 100), 1],
      [exportedId(desc, 102), exportedId(desc, 100), 0],
    ]);
    await t.http.get(`/rest/api/content/${exportedId(desc, 102)}`).set('Authorization', reader.auth).expect(404);
    await t.http.get(`/rest/api/content/${exportedId(desc, 101)}`).set('Authorization', reader.auth).expect(200);
  });

  it('a re-run of the same export is unchanged and writes nothing', async () => {
    const again = await run();
    expect(again.units[0]).toMatchObject({ outcome: 'unchanged' });
    for (const c of Object.values(again.units[0]!.counts)) expect(c.created + c.updated).toBe(0);
  });
});
