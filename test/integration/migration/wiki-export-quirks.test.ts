// The quirks of real space exports, end to end: an export with all of them at once (ids above 2^31, `]] >` for a
// nested `]]>`, characters XML forbids, bodies found only through their back-reference, the old User and Group
// classes with memberships by name, unknown classes, objects in reverse order) and one with bodies as escaped
// text, each read by openWikiExport and imported by importWikiSpaces. The stored bodies and the code-box
// downloads are those of the same bodies saved through REST; titles have lost the forbidden characters; drafts,
// deleted pages and older versions are not there; a group member reads the restricted page, others do not.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import type { MigrationReport } from '../../../src/migration/report.ts';
import { openWikiExport } from '../../../src/migration/wiki-export/open-wiki-export.ts';
import { importWikiSpaces } from '../../../src/migration/wiki/space-writer.ts';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { codeboxMacro, createContent, createSpace, grantSpace, multiBox } from '../../helpers/wiki-fixtures.ts';
import { exportedId, writeExportZip, type ExportDescription, type ExportQuirks } from '../../helpers/wiki-export-builder.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const RAW = 'cmF3';
const macro = (n: number) => `0ddba11e-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Code boxes whose storage holds `]]>` (a CDATA split in two), an ampersand, a CR and non-ASCII text. */
const BODY =
  '<p>Deploy &amp; check — “quoted”</p>' +
  `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1" ac:macro-id="${macro(1)}"><ac:plain-text-body><![CDATA[[x]\nk = a]]]]><![CDATA[>b & c\n[content]\nk=\${k}\n]]></ac:plain-text-body></ac:structured-macro>` +
  codeboxMacro('advanced-codeblock-macro', '[a]\nv = 1 & 2\n[content]\nline ${v}\r\nend ]]> here\n', {}, macro(2)) +
  multiBox(macro(3), '[dev]\nhost = dev.local\n[content]\nserver ${host} ✓\n');

const ALL: ExportQuirks = {
  bigIds: true, cdataClose: 'space', forbiddenChars: true, bodiesByBackReferenceOnly: true, membership: 'internal',
  legacyUserClasses: true, unknownObjects: true, reverseOrder: true,
};

function description(key: string, quirks: ExportQuirks): ExportDescription {
  return {
    quirks,
    users: [{ name: `${key}-carol`, displayName: 'Carol', email: 'carol@old.example' }],
    groups: [{ name: 'q-ops', members: [`${key}-carol`, 'q-member'] }],
    spaces: [
      {
        id: 7,
        key,
        name: `Quirks ${key}`,
        homePageId: 100,
        pages: [
          {
            id: 100, title: 'Home', body: BODY, version: 5, creator: `${key}-carol`, historicalVersions: 2, attachments: 1,
            comments: [{ id: 150, body: '<p>a comment &amp; more</p>' }, { id: 151, body: '<p>gone</p>', status: 'deleted' }],
            children: [
              { id: 101, title: 'Secret', body: '<p>ops only</p>', view: { groups: ['q-ops'] }, edit: { users: [`${key}-carol`] } },
              { id: 102, title: 'Draft', body: '<p>not yet</p>', status: 'draft' },
              { id: 103, title: 'Trashed', body: '<p>gone</p>', status: 'deleted' },
            ],
          },
        ],
      },
    ],
  };
}

describe.each([
  ['QALL', ALL],
  ['QESC', { ...ALL, bodyEncoding: 'escaped' as const }],
])('an export with quirks (%s) imported', (key, quirks) => {
  const t = useTestApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wiki-export-quirks-'));
  const desc = description(key, quirks);
  const id = (n: number) => exportedId(desc, n);
  let member: TestUser;
  let outsider: TestUser;
  let referenceId: string;
  let report: MigrationReport;

  beforeAll(async () => {
    const file = path.join(dir, 'export.zip');
    writeExportZip(file, desc);
    member = await t.createUser('q-member', { groups: ['q-readers'] });
    outsider = await t.createUser('q-outsider', { groups: ['q-readers'] });
    await createSpace(t, 'QREF', { groups: ['q-readers'] }, { users: ['admin'] });
    referenceId = (await createContent(t, t.adminAuth, { space: 'QREF', title: 'Reference', body: BODY })).id;
    const source = await openWikiExport(file, { progress: () => undefined, tmpDir: dir });
    try {
      report = await importWikiSpaces(migrationDeps(t.services), source, { dryRun: false, progress: () => undefined });
    } finally {
      await source.close();
    }
    await grantSpace(t, key, { group: 'q-readers' }, 'read');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports the current content and reports what it left out', () => {
    const unit = report.units[0]!;
    expect(unit).toMatchObject({ name: key, outcome: 'imported', mapped: [] });
    expect(unit.counts).toMatchObject({ pages: { created: 2 }, comments: { created: 1 } });
    // Forbidden characters: two in each of four pages and two older versions, one in each of two comments.
    expect(unit.skipped).toMatchObject({
      drafts: 1, 'deleted content': 2, 'historical versions': 2, attachments: 1, 'edit restrictions': 1,
      'forbidden characters dropped': 2 * 6 + 2 + 1,
    });
    expect(id(100)).toBeGreaterThan(2 ** 31);
  });

  it('stores the body as the same body saved through REST, and every code box downloads the same bytes', async () => {
    const storage = async (contentId: number | string) =>
      ((await t.http.get(`/rest/api/content/${contentId}`).query({ expand: 'body.storage' }).set('Authorization', member.auth).expect(200))
        .body as { title: string; body: { storage: { value: string } } });
    const imported = await storage(id(100));
    expect(imported.title).toBe('Home');
    expect(imported.body.storage.value).toBe((await storage(referenceId)).body.storage.value);
    for (const n of [1, 2, 3]) {
      const ours = await t.http.get(E1).query({ key: RAW, macroId: macro(n), pageId: id(100) }).set('Authorization', member.auth);
      const ref = await t.http.get(E1).query({ key: RAW, macroId: macro(n), pageId: referenceId }).set('Authorization', member.auth);
      expect(ours.status, macro(n)).toBe(200);
      expect(Buffer.from(ours.text).equals(Buffer.from(ref.text)), macro(n)).toBe(true);
    }
  });

  it('leaves out drafts, deleted content and older versions', async () => {
    await t.http.get(`/rest/api/content/${id(100)}`).set('Authorization', member.auth).expect(200);
    for (const n of [102, 103, 151]) await t.http.get(`/rest/api/content/${id(n)}`).set('Authorization', member.auth).expect(404);
    const rows = await t.services.db.knex('contents').where('space_id', (await t.services.db.knex('spaces').where({ key }).first('id')).id);
    expect(rows.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual([id(100), id(101), id(150)]);
  });

  it('lets a member of the group the export names read the restricted page, and nobody else', async () => {
    await t.http.get(`/rest/api/content/${id(101)}`).set('Authorization', member.auth).expect(200);
    await t.http.get(`/rest/api/content/${id(101)}`).set('Authorization', outsider.auth).expect(404);
    expect(report.usersWithoutPassword).toContain(`${key}-carol`);
  });
});
