// Issue 41: an import never shows what the source hid. Exports in the wiki's own format (4.x exports naming
// users by `userName`, later ones by user key, some by both), restricted home pages with children and
// comments, restricted parents at two levels that are left out (deleted), and restrictions naming only a
// user the export lacks (on a blog post and on a page with children). For every content item the set of
// users who may read it here is compared with the set at the source, through REST, as each named user, as
// the administrator (a reader of the space that no restriction names) and as a plain reader of the space.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { grantSpace } from '../../helpers/wiki-fixtures.ts';
import { writeExportZip, type ExportDescription, type ExportQuirks, type ExportSpace } from '../../helpers/wiki-export-builder.ts';
import { openWikiExportSource } from '../../../src/migration/import-sources.ts';
import { importWikiSpaces } from '../../../src/migration/wiki/space-writer.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import { reportText } from '../../../src/migration/report-text.ts';
import type { MigrationReport } from '../../../src/migration/report.ts';

const PEOPLE = ['rk-alice', 'rk-bob', 'rk-carol', 'rk-dave', 'rk-reader'] as const;
type Person = (typeof PEOPLE)[number] | 'admin';
const GHOST = 'rk-ghost';

/**
 * One space of the tree the issue describes, its ids offset by `base`, with who may read each item at the
 * source (the administrator is a reader of the space and named by no restriction: it reads only open items).
 */
function tree(key: string, base: number): { space: ExportSpace; readers: Map<number, Person[]> } {
  const all: Person[] = [...PEOPLE, 'admin'];
  const readers = new Map<number, Person[]>();
  const id = (n: number, who: Person[]) => {
    readers.set(base + n, who);
    return base + n;
  };
  const space: ExportSpace = {
    id: base,
    key,
    name: `Kept ${key}`,
    homePageId: base + 1,
    pages: [
      {
        // The home page, restricted by user name to Alice, with children and comments.
        id: id(1, ['rk-alice']), title: 'Home', body: '<p>home</p>', creator: 'rk-alice', view: { users: ['rk-alice'] },
        comments: [{ id: id(51, ['rk-alice']), body: '<p>on home</p>', creator: 'rk-alice' }],
        children: [
          { id: id(2, ['rk-alice']), title: 'Child', body: '<p>c</p>', comments: [{ id: id(52, ['rk-alice']), body: '<p>on child</p>', creator: 'rk-bob' }] },
          // A restricted page under a restricted page: both levels hold.
          { id: id(3, ['rk-alice']), title: 'Second level', body: '<p>s</p>', view: { users: ['rk-alice', 'rk-bob'] } },
        ],
      },
      {
        id: id(10, ['rk-bob', 'rk-carol']), title: 'Ops', body: '<p>ops</p>', view: { groups: ['rk-ops'] },
        children: [
          {
            // Deleted (not imported), restricted: its child keeps that restriction under Ops.
            id: base + 11, title: 'Deleted middle', body: '<p>d</p>', status: 'deleted', view: { users: ['rk-bob', 'rk-dave'] },
            children: [{ id: id(12, ['rk-bob']), title: 'Survivor', body: '<p>sv</p>', comments: [{ id: id(53, ['rk-bob']), body: '<p>x</p>' }] }],
          },
        ],
      },
      {
        // Two left-out restricted levels above a current page: it goes to the top with both restrictions.
        id: base + 20, title: 'Top deleted', body: '<p>t</p>', status: 'deleted', view: { users: ['rk-alice', 'rk-carol'] },
        children: [
          {
            id: base + 21, title: 'Middle deleted', body: '<p>m</p>', status: 'deleted', view: { groups: ['rk-ops'] },
            children: [{ id: id(22, ['rk-carol']), title: 'Deep orphan', body: '<p>o</p>' }],
          },
        ],
      },
      { id: id(30, all), title: 'Open', body: '<p>open</p>', comments: [{ id: id(54, all), body: '<p>hi</p>' }] },
    ],
    blogPosts: [{ id: id(40, ['rk-dave']), title: 'Dave only', body: '<p>b</p>', view: { users: ['rk-dave'] } }],
  };
  return { space, readers };
}

/** A space whose restrictions name a user the export lacks (user keys without a user record). */
function ghostTree(key: string, base: number): { space: ExportSpace; readers: Map<number, Person[]> } {
  const all: Person[] = [...PEOPLE, 'admin'];
  const readers = new Map<number, Person[]>([
    [base + 1, []], [base + 51, []], [base + 2, []], [base + 52, []], [base + 3, []], [base + 4, ['rk-dave']], [base + 5, all], [base + 40, []], [base + 53, []],
  ]);
  const space: ExportSpace = {
    id: base,
    key,
    name: 'Ghostly',
    pages: [
      {
        id: base + 1, title: 'Ghost page', body: '<p>g</p>', view: { users: [GHOST] }, comments: [{ id: base + 51, body: '<p>c</p>' }],
        children: [
          { id: base + 2, title: 'Under ghost', body: '<p>u</p>', comments: [{ id: base + 52, body: '<p>c</p>' }] },
          { id: base + 3, title: 'Alice under ghost', body: '<p>a</p>', view: { users: ['rk-alice'] } },
        ],
      },
      { id: base + 4, title: 'Ghost and Dave', body: '<p>d</p>', view: { users: [GHOST, 'rk-dave'] } },
      { id: base + 5, title: 'Open', body: '<p>o</p>' },
    ],
    blogPosts: [{ id: base + 40, title: 'Ghost post', body: '<p>p</p>', view: { users: [GHOST] }, comments: [{ id: base + 53, body: '<p>c</p>' }] }],
  };
  return { space, readers };
}

describe('an import keeps every view restriction of the source (issue 41)', () => {
  const t = useTestApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-kept-'));
  const users = new Map<Person, TestUser | { auth: string }>();
  const readers = new Map<number, Person[]>();
  const reports = new Map<string, MigrationReport>();
  const variants: { key: string; quirks: ExportQuirks; build: typeof tree; base: number }[] = [
    { key: 'RKNAME', quirks: { userReferences: 'name', legacyUserClasses: true }, build: tree, base: 71000 },
    { key: 'RKKEY', quirks: { userReferences: 'key' }, build: tree, base: 72000 },
    { key: 'RKBOTH', quirks: { userReferences: 'both' }, build: tree, base: 73000 },
    { key: 'RKGHOST', quirks: { missingUsers: [GHOST] }, build: ghostTree, base: 74000 },
  ];

  beforeAll(async () => {
    // The people exist here already, under the same names (Alice's is the account the issue saw ignored).
    for (const name of PEOPLE) users.set(name, await t.createUser(name, { groups: ['rk-readers'] }));
    users.set('admin', { auth: t.adminAuth });
    for (const v of variants) {
      const { space, readers: r } = v.build(v.key, v.base);
      r.forEach((who, id) => readers.set(id, who));
      const desc: ExportDescription = {
        quirks: v.quirks,
        users: PEOPLE.filter((p) => p !== 'rk-reader').map((name) => ({ name, displayName: name })),
        groups: [{ name: 'rk-ops', members: ['rk-bob', 'rk-carol'] }],
        spaces: [space],
      };
      const file = path.join(dir, `${v.key}.zip`);
      writeExportZip(file, desc);
      const source = await openWikiExportSource(file, { progress: () => undefined });
      try {
        reports.set(v.key, await importWikiSpaces(migrationDeps(t.services), source, { dryRun: false, progress: () => undefined }));
      } finally {
        await source.close();
      }
      await grantSpace(t, v.key, { group: 'rk-readers' }, 'read');
      await grantSpace(t, v.key, { user: 'admin' }, 'read');
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports every space and names each item kept hidden or left out, with the reason', () => {
    for (const v of variants) {
      const unit = reports.get(v.key)!.units[0]!;
      expect(unit.outcome, v.key).toBe('imported');
      expect(unit.nobodyReads, v.key).toBe(true);
    }
    const named = reports.get('RKNAME')!.units[0]!;
    expect(named.items!.filter((i) => i.outcome === 'hidden')).toEqual([]);
    expect(named.items!.filter((i) => i.outcome === 'not imported').map((i) => [i.id, i.reason]).sort()).toEqual([
      [71011, 'deleted content'], [71020, 'deleted content'], [71021, 'deleted content'],
    ]);
    const ghost = reports.get('RKGHOST')!.units[0]!;
    expect(ghost.items!.filter((i) => i.outcome === 'hidden').map((i) => [i.kind, i.id]).sort()).toEqual([['blogpost', 74040], ['page', 74001]]);
    const text = reportText(reports.get('RKGHOST')!);
    expect(text).toContain('page 74001 "Ghost page": its view restriction names only people');
    expect(text).toContain('blogpost 74040 "Ghost post"');
    expect(text).toMatch(/PUT \/rest\/api\/content\/ID\/restriction/);
    expect(text).toContain('nobody can read this space yet');
  });

  it('lets exactly the readers of the source read each page, blog post and comment', async () => {
    const mismatches: string[] = [];
    for (const [id, allowed] of readers) {
      for (const [person, user] of users) {
        const res = await t.http.get(`/rest/api/content/${id}`).set('Authorization', user.auth);
        const want = allowed.includes(person) ? 200 : 404;
        if (res.status !== want) mismatches.push(`${id} as ${person}: ${res.status}, want ${want}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('lists to each user exactly the pages and blog posts it may read', async () => {
    for (const v of variants) {
      for (const [person, user] of users) {
        const listed: number[] = [];
        for (const type of ['page', 'blogpost']) {
          const res = await t.http.get('/rest/api/content').query({ spaceKey: v.key, type, limit: 100 }).set('Authorization', user.auth).expect(200);
          listed.push(...(res.body.results as { id: string }[]).map((r) => Number(r.id)));
        }
        const want = [...readers].filter(([id, who]) => id >= v.base && id < v.base + 50 && who.includes(person)).map(([id]) => id);
        expect(listed.sort(), `${v.key} as ${person}`).toEqual(want.sort());
      }
    }
  });

  it('an administrator lifts a hidden page by naming who may read it', async () => {
    const auth = users.get('rk-reader')!.auth;
    await t.http.get('/rest/api/content/74001').set('Authorization', auth).expect(404);
    await t.http
      .put('/rest/api/content/74001/restriction')
      .set('Authorization', t.adminAuth)
      .send([{ operation: 'read', restrictions: { user: [{ type: 'known', username: 'rk-reader' }], group: [] } }])
      .expect(200);
    await t.http.get('/rest/api/content/74001').set('Authorization', auth).expect(200);
    // Its child is open below it; the one restricted to Alice still is.
    await t.http.get('/rest/api/content/74002').set('Authorization', auth).expect(200);
    await t.http.get('/rest/api/content/74003').set('Authorization', auth).expect(404);
  });
});
