// The space writer (issue 31) with an in-memory wiki source: ids kept and mapped, bodies stored as a REST save
// stores them (macro ids kept, code boxes indexed), users without a usable password, restrictions, re-runs that
// write only what changed, a failing space left untouched, and the dry run.
import { beforeAll, describe, expect, it } from 'vitest';
import { basic, useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContent, createSpace, grantSpace, keyOf, multiBox } from '../../helpers/wiki-fixtures.ts';
import { importWikiSpaces } from '../../../src/migration/wiki/space-writer.ts';
import { BUILTIN_MEMBERSHIPS_SKIPPED } from '../../../src/migration/imported-people.ts';
import { UNSERVED_MACROS } from '../../../src/migration/wiki/space-content.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import { reportText } from '../../../src/migration/report-text.ts';
import type { SourceContent, SourceSpaceBundle, WikiSource } from '../../../src/migration/wiki/space-model.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const MACRO = '3c0a3c52-1111-4d2e-9a77-0a0b0c0d0e01';

/** A source holding these bundles, each body from `bodies` (or a paragraph). */
function memorySource(bundles: { space: SourceSpaceBundle['space']; content: SourceContent[]; bodies?: Record<number, string>; users?: SourceSpaceBundle['users']; groups?: SourceSpaceBundle['groups'] }[]): WikiSource {
  return {
    label: 'memory',
    async *spaces(keys) {
      for (const b of bundles) {
        if (keys && !keys.some((k) => k.toLowerCase() === b.space.key.toLowerCase())) continue;
        yield {
          space: b.space,
          content: b.content,
          users: b.users ?? [],
          groups: b.groups ?? [],
          notImported: { 'historical versions': 2 },
          body: async (id) => b.bodies?.[id] ?? `<p>body of ${id}</p>`,
        };
      }
    },
    close: async () => undefined,
  };
}

const hosts = (host: string) => multiBox(MACRO, `[dev]\nh = ${host}\n[content]\nhost \${h}\n`);

describe('importWikiSpaces', () => {
  const t = useTestApp();
  const progress = () => undefined;
  let reader: TestUser;
  const base = { key: 'MIG', name: 'Migrated', description: 'From the old wiki', homePageId: 9001 };
  const content: SourceContent[] = [
    { id: 9001, type: 'page', title: 'Home', version: 4, creator: 'old-alice', createdAt: new Date('2020-01-02T03:04:05Z'), updatedAt: new Date('2021-01-02T03:04:05Z') },
    { id: 9002, type: 'page', title: 'Child B', parentId: 9001, position: 1, version: 2, creator: 'old-bob' },
    { id: 9003, type: 'page', title: 'Child A', parentId: 9001, position: 0, version: 1, viewRestrictions: { users: ['old-alice'], groups: ['old-team'] } },
    { id: 9004, type: 'blogpost', title: 'News', version: 1 },
    { id: 9005, type: 'comment', title: '', containerId: 9001, version: 1, creator: 'old-bob' },
  ];
  const bodies = { 9001: hosts('dev.old'), 9003: `<p>secret</p>${multiBox(undefined, 'x')}` };
  const source = () =>
    memorySource([
      {
        space: base,
        content,
        bodies,
        users: [{ name: 'old-alice', displayName: 'Alice Old', email: 'alice@old.example' }],
        groups: [{ name: 'old-team', members: ['old-alice'] }],
      },
    ]);

  beforeAll(async () => {
    reader = await t.createUser('mig-reader', { groups: ['mig-readers'] });
  });

  it('dry run: counts exactly, writes nothing', async () => {
    const report = await importWikiSpaces(migrationDeps(t.services), source(), { dryRun: true, progress });
    expect(report.units).toHaveLength(1);
    expect(report.units[0]).toMatchObject({ name: 'MIG', outcome: 'would-import', counts: { pages: { created: 3 }, comments: { created: 1 } } });
    expect(report.usersWithoutPassword).toEqual(['old-alice', 'old-bob']);
    await t.http.get('/rest/api/space/MIG').set('Authorization', t.adminAuth).expect(404);
    expect(await t.services.db.knex('users').where({ name_key: 'old-bob' }).first()).toBeUndefined();
  });

  it('imports a space with ids kept, versions, dates, positions, restrictions and users without password', async () => {
    const report = await importWikiSpaces(migrationDeps(t.services), source(), { dryRun: false, progress });
    const unit = report.units[0]!;
    expect(unit.outcome).toBe('imported');
    expect(unit.counts).toMatchObject({ spaces: { created: 1 }, pages: { created: 3 }, 'blog posts': { created: 1 }, comments: { created: 1 }, users: { created: 2 }, groups: { created: 1 } });
    expect(unit.mapped).toEqual([]);
    expect(unit.skipped).toEqual({ 'historical versions': 2 });
    expect(report.usersWithoutPassword).toEqual(['old-alice', 'old-bob']);
    const rows = await t.services.db.knex('contents').whereIn('id', [9001, 9002, 9003, 9004, 9005]).orderBy('id');
    expect(rows.map((r) => [Number(r.id), r.version, r.position, r.parent_id === null ? null : Number(r.parent_id)])).toEqual([
      [9001, 4, null, null],
      [9002, 2, 1, 9001],
      [9003, 1, 0, 9001],
      [9004, 1, null, null],
      [9005, 1, null, null],
    ]);
    expect(new Date(rows[0].created_at).toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect(rows[4].title).toBe('Re: Home');
    // The macro id of the body is kept; a macro without one got one.
    expect(rows[0].body).toContain(`ac:macro-id="${MACRO}"`);
    expect(rows[2].body).toMatch(/ac:macro-id="[0-9a-f-]{36}"/);
    // Imported users cannot sign in with any password until one is set.
    await t.http.get('/rest/api/2/myself').set('Authorization', basic('old-bob', '')).expect(401);
    await t.http.get('/rest/api/2/myself').set('Authorization', basic('old-bob', '!imported-without-password')).expect(401);
  });

  it('serves the imported code box by page id and macro id, and keeps the restriction', async () => {
    await grantSpace(t, 'MIG', { group: 'mig-readers' }, 'read');
    const res = await t.http.get(E1).query({ key: keyOf('dev'), macroId: MACRO, contentId: 9001 }).set('Authorization', reader.auth).expect(200);
    expect(res.text).toBe('host dev.old\n');
    await t.http.get('/rest/api/content/9003').set('Authorization', reader.auth).expect(404);
    // Administrators have no implicit view right, so the restriction is read from its table.
    const allowed = await t.services.db.knex('content_read_restrictions as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .leftJoin('groups as g', 'g.id', 'r.group_id')
      .where('r.content_id', 9003)
      .select('u.name as user', 'g.name as group');
    expect(allowed).toEqual(expect.arrayContaining([{ user: 'old-alice', group: null }, { user: null, group: 'old-team' }]));
  });

  it("keeps the space's home page, answered with expand=homepage to whoever may view it", async () => {
    const space = (await t.http.get('/rest/api/space/MIG').query({ expand: 'homepage' }).set('Authorization', reader.auth).expect(200)).body as { homepage?: { id: string; title: string } };
    expect(space.homepage).toMatchObject({ id: '9001', title: 'Home' });
    const plain = (await t.http.get('/rest/api/space/MIG').set('Authorization', reader.auth).expect(200)).body as { homepage?: unknown };
    expect(plain.homepage).toBeUndefined();
    // A home page the caller may not view is left out, like the page itself.
    await t.services.db.knex('spaces').where({ key: 'MIG' }).update({ home_page_id: 9003 });
    const hidden = (await t.http.get('/rest/api/space/MIG').query({ expand: 'homepage' }).set('Authorization', reader.auth).expect(200)).body as { homepage?: unknown };
    expect(hidden.homepage).toBeUndefined();
    await t.services.db.knex('spaces').where({ key: 'MIG' }).update({ home_page_id: 9001 });
  });

  it('a re-run with nothing new is unchanged and writes nothing', async () => {
    const report = await importWikiSpaces(migrationDeps(t.services), source(), { dryRun: false, progress });
    expect(report.units[0]).toMatchObject({ outcome: 'unchanged', counts: { pages: { created: 0, updated: 0, unchanged: 3 } } });
    const row = await t.services.db.knex('contents').where({ id: 9001 }).first();
    expect(row.version).toBe(4);
  });

  it('a changed page gets a new version, a renamed space its new name; the download follows', async () => {
    const changed = memorySource([{ space: { ...base, name: 'Migrated, renamed' }, content: content.map((c) => (c.id === 9001 ? { ...c, version: 5 } : c)), bodies: { ...bodies, 9001: hosts('dev.new') } }]);
    const report = await importWikiSpaces(migrationDeps(t.services), changed, { dryRun: false, progress });
    expect(report.units[0]).toMatchObject({ outcome: 'imported', counts: { spaces: { updated: 1 }, pages: { updated: 1, unchanged: 2 } } });
    expect((await t.services.db.knex('spaces').where({ key: 'MIG' }).first()).name).toBe('Migrated, renamed');
    expect((await t.services.db.knex('contents').where({ id: 9001 }).first()).version).toBe(5);
    const res = await t.http.get(E1).query({ key: keyOf('dev'), macroId: MACRO, contentId: 9001 }).set('Authorization', reader.auth).expect(200);
    expect(res.text).toBe('host dev.new\n');
  });

  it('a re-run lifts a restriction the source lifted and moves a page the source moved', async () => {
    const moved = content.map((c) => (c.id === 9003 ? { ...c, viewRestrictions: undefined, parentId: 9002 } : c.id === 9001 ? { ...c, version: 5 } : c));
    const report = await importWikiSpaces(migrationDeps(t.services), memorySource([{ space: { ...base, name: 'Migrated, renamed' }, content: moved, bodies: { ...bodies, 9001: hosts('dev.new') } }]), { dryRun: false, progress });
    expect(report.units[0]).toMatchObject({ outcome: 'imported', counts: { pages: { updated: 1, unchanged: 2 } } });
    const row = await t.services.db.knex('contents').where({ id: 9003 }).first();
    expect([Number(row.parent_id), row.read_restricted, row.version]).toEqual([9002, false, 2]);
    expect(await t.services.db.knex('content_read_restrictions').where({ content_id: 9003 })).toEqual([]);
  });

  it('maps an id that is taken here and reports it; children follow the mapping', async () => {
    await createSpace(t, 'LOCAL', {}, { users: ['admin'] });
    const local = await createContent(t, t.adminAuth, { space: 'LOCAL', title: 'Ours' });
    const takenId = Number(local.id);
    const other = memorySource([
      {
        space: { key: 'MAPD', name: 'Mapped', description: '' },
        content: [
          { id: takenId, type: 'page', title: 'Theirs', version: 1 },
          { id: 9101, type: 'page', title: 'Under theirs', parentId: takenId, version: 1 },
        ],
      },
    ]);
    const report = await importWikiSpaces(migrationDeps(t.services), other, { dryRun: false, progress });
    const unit = report.units[0]!;
    expect(unit.outcome).toBe('imported');
    expect(unit.mapped).toHaveLength(1);
    const to = Number(unit.mapped[0]!.to);
    expect(unit.mapped[0]).toMatchObject({ kind: 'page', from: takenId });
    expect(to).not.toBe(takenId);
    expect((await t.services.db.knex('contents').where({ id: takenId }).first()).title).toBe('Ours');
    expect(Number((await t.services.db.knex('contents').where({ id: 9101 }).first()).parent_id)).toBe(to);
    // A re-run finds the mapped record again: unchanged, still reported as mapped.
    const again = await importWikiSpaces(migrationDeps(t.services), other, { dryRun: false, progress });
    expect(again.units[0]).toMatchObject({ outcome: 'unchanged', mapped: [{ from: takenId, to }] });
  });

  it('a space whose body the storage parser refuses fails untouched; the next space goes on', async () => {
    const two = memorySource([
      { space: { key: 'BAD', name: 'Bad', description: '' }, content: [{ id: 9201, type: 'page', title: 'Fine', version: 1 }, { id: 9202, type: 'page', title: 'Broken', version: 1 }], bodies: { 9202: '<p>unclosed' } },
      { space: { key: 'GOOD', name: 'Good', description: '' }, content: [{ id: 9301, type: 'page', title: 'Fine', version: 1 }] },
    ]);
    const report = await importWikiSpaces(migrationDeps(t.services), two, { dryRun: false, progress });
    expect(report.units.map((u) => [u.name, u.outcome])).toEqual([
      ['BAD', 'failed'],
      ['GOOD', 'imported'],
    ]);
    expect(report.units[0]!.reason).toMatch(/^page 9202 "Broken": /);
    expect(report.units[0]!.reason).not.toContain('\n');
    expect(await t.services.db.knex('contents').where({ id: 9201 }).first()).toBeUndefined();
    expect(await t.services.db.knex('spaces').where({ key: 'BAD' }).first()).toBeUndefined();
  });

  it('a requested space the source does not hold is a failed unit', async () => {
    const report = await importWikiSpaces(migrationDeps(t.services), source(), { spaces: ['NOPE'], dryRun: false, progress });
    expect(report.units).toEqual([expect.objectContaining({ name: 'NOPE', outcome: 'failed', reason: expect.stringContaining('no space') })]);
  });

  it("gives nobody a role: an export's members of a group named like a built-in one are not added to it", async () => {
    const mallory = await t.createUser('mig-mallory');
    const roles = memorySource([
      {
        space: { key: 'ROLES', name: 'Roles', description: '' },
        content: [{ id: 9401, type: 'page', title: 'Admins only', version: 1, viewRestrictions: { users: [], groups: ['administrators'] } }],
        groups: [
          { name: 'administrators', members: ['mig-mallory', 'mig-newcomer'] },
          { name: 'system-administrators', members: ['mig-mallory'] },
        ],
      },
    ]);
    const report = await importWikiSpaces(migrationDeps(t.services), roles, { dryRun: false, progress });
    expect(report.units[0]!.outcome).toBe('imported');
    expect(report.units[0]!.skipped[BUILTIN_MEMBERSHIPS_SKIPPED]).toBe(3);
    const admins = await t.services.db.knex('group_members as m').join('groups as g', 'g.id', 'm.group_id').join('users as u', 'u.id', 'm.user_id')
      .whereIn('g.name', ['administrators', 'system-administrators']).pluck('u.name');
    expect(admins).not.toContain(mallory.name);
    expect(admins).not.toContain('mig-newcomer');
    await t.http.get('/rest/api/2/myself').set('Authorization', basic(mallory.name, mallory.password)).expect(200);
    // The page stays restricted to the administrators group, which Mallory is not in.
    await t.http.get('/rest/api/content/9401').set('Authorization', basic(mallory.name, mallory.password)).expect(404);
  });

  it('imports a restricted page whose people are unknown hidden, and names it in the report', async () => {
    const nobody = memorySource([
      {
        space: { key: 'NOBODY', name: 'Nobody', description: '' },
        content: [{ id: 9501, type: 'page', title: 'Secret', version: 1, viewRestrictions: { users: ['  '], groups: [] } }],
      },
    ]);
    const report = await importWikiSpaces(migrationDeps(t.services), nobody, { dryRun: false, progress });
    expect(report.units[0]).toMatchObject({ name: 'NOBODY', outcome: 'imported', nobodyReads: true });
    expect(report.units[0]!.items).toEqual([expect.objectContaining({ kind: 'page', id: 9501, localId: 9501, outcome: 'hidden', reason: expect.stringMatching(/names only people/) })]);
    expect(reportText(report)).toMatch(/imported hidden[^\n]*\n\s+page 9501 "Secret"/);
    expect(await t.services.db.knex('contents').where({ id: 9501 }).first('read_restricted')).toEqual({ read_restricted: true });
    await grantSpace(t, 'NOBODY', { user: 'admin' }, 'read');
    await t.http.get('/rest/api/content/9501').set('Authorization', t.adminAuth).expect(404);
  });

  it('counts the macros no add-on here serves, and keeps them in the body as they are', async () => {
    const info = '<ac:structured-macro ac:name="info" ac:macro-id="5a1f0000-0000-4000-8000-000000000001"><ac:rich-text-body><p>Read me</p></ac:rich-text-body></ac:structured-macro>';
    const toc = '<ac:structured-macro ac:name="toc" ac:macro-id="5a1f0000-0000-4000-8000-000000000002" />';
    const macros = memorySource([
      { space: { key: 'MACROS', name: 'Macros', description: '' }, content: [{ id: 9601, type: 'page', title: 'Mixed', version: 1 }], bodies: { 9601: `${info}${hosts('m.example')}${toc}` } },
    ]);
    const report = await importWikiSpaces(migrationDeps(t.services), macros, { dryRun: false, progress });
    expect(report.units[0]!.outcome).toBe('imported');
    expect(report.units[0]!.skipped[UNSERVED_MACROS]).toBe(2);
    const stored = (await t.services.db.knex('contents').where({ id: 9601 }).first()).body as string;
    expect(stored).toContain('ac:name="info"');
    expect(stored).toContain('ac:name="toc"');
  });

  it('reports a space the source could not read whole as failed, writes nothing of it, and goes on', async () => {
    const partial: WikiSource = {
      label: 'memory',
      async *spaces() {
        yield { space: { key: 'HALF', name: 'Half', description: '' }, content: [{ id: 9701, type: 'page', title: 'Read', version: 1 }], users: [], groups: [], notImported: {}, body: async () => '<p>x</p>', failure: 'wiki https://old.example answered 500: database on fire' };
        yield { space: { key: 'WHOLE', name: 'Whole', description: '' }, content: [{ id: 9702, type: 'page', title: 'Read', version: 1 }], users: [], groups: [], notImported: {}, body: async () => '<p>y</p>' };
      },
      close: async () => undefined,
    };
    const report = await importWikiSpaces(migrationDeps(t.services), partial, { dryRun: false, progress });
    expect(report.units.map((u) => [u.name, u.outcome, u.reason])).toEqual([
      ['HALF', 'failed', 'wiki https://old.example answered 500: database on fire'],
      ['WHOLE', 'imported', undefined],
    ]);
    expect(await t.services.db.knex('spaces').where({ key: 'HALF' }).first()).toBeUndefined();
    expect(await t.services.db.knex('contents').where({ id: 9701 }).first()).toBeUndefined();
  });
});
