// import-from tracker (issue 31): a second app of ours is the live source, seeded through REST with a
// three-level tree, disabled options, defaults, global and context grants to users and groups. After the
// import every option list, default and grant reads the same on both; a re-run changes nothing; a change
// in the source (rename, addition, reorder, a new grant) is brought across.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { importFromTracker } from '../../../src/migration/tracker-rest/tracker-import.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import type { MigrationReport } from '../../../src/migration/report.ts';
import { addOptions, createContext, grant } from '../../helpers/tracker-fixtures.ts';
import { paths, seedSource, send, serve, snapshot, type OptionJson, type SeededSource } from './tracker-helpers.ts';

describe('importFromTracker', () => {
  const source = useTestApp();
  let target: TestApp;
  let seeded: SeededSource;
  let server: { url: string; close: () => Promise<void> };
  const messages: string[] = [];
  const run = async (extra: { fields?: string[]; dryRun?: boolean } = {}): Promise<MigrationReport> =>
    importFromTracker(migrationDeps(target.services), {
      url: server.url,
      auth: { user: 'admin', password: 'admin-secret' },
      dryRun: extra.dryRun ?? false,
      fields: extra.fields,
      progress: (m) => messages.push(m),
    });

  beforeAll(async () => {
    seeded = await seedSource(source);
    server = await serve(source);
    target = await createTestApp();
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('brings every select field across: options at every level, order, disabled flags, ids, defaults, grants', async () => {
    const report = await run();
    expect(report.dryRun).toBe(false);
    expect(report.source).toBe(`tracker ${server.url}`);
    const names = report.units.map((u) => u.name);
    expect(names).toHaveLength(3);
    for (const u of report.units) expect(u, JSON.stringify(u)).toMatchObject({ kind: 'field', outcome: 'imported', mapped: [] });
    const tree = report.units.find((u) => u.name.includes(String(seeded.tree)))!;
    expect(tree.counts.options).toEqual({ created: 10, updated: 0, unchanged: 0 });
    expect(tree.counts.contexts).toEqual({ created: 1, updated: 0, unchanged: 1 });
    expect(tree.counts.projects?.created).toBe(1);
    expect(report.usersWithoutPassword).toEqual([seeded.editor, seeded.member].sort());
    for (const id of [seeded.tree, seeded.single, seeded.multi]) {
      expect(await snapshot(target, id), `field ${id}`).toEqual(await snapshot(source, id));
    }
    // The snapshots compared above hold what was seeded (so the comparison is not of two empty things).
    type Snap = { contexts: { options: { value: string; disabled: boolean; children: { value: string; children: { value: string }[] }[] }[]; default: unknown }[] };
    const tree3 = (await snapshot(target, seeded.tree)) as Snap & { contextGrants: { users: string[] }[] };
    expect(tree3.contexts[0]!.options[0]!.children[0]!.children.map((o) => o.value)).toEqual(['Paris', 'Lyon']);
    expect(tree3.contexts[0]!.options[2]).toMatchObject({ value: 'Mars', disabled: true });
    expect(tree3.contexts[0]!.default).toEqual({ option: 'Europe', child: 'Spain', options: [] });
    expect(tree3.contextGrants.flatMap((g) => g.users)).toEqual([seeded.editor]);
    const single = (await snapshot(target, seeded.single)) as Snap & { grants: { groups: string[] } };
    expect(single.contexts[0]!.options.map((o) => `${o.value}${o.disabled ? '-' : ''}`)).toEqual(['Blue', 'Red', 'Green', 'Grey-']);
    expect(single.grants.groups).toEqual([seeded.group]);
    expect(((await snapshot(target, seeded.multi)) as Snap).contexts[0]!.default).toEqual({ option: null, child: null, options: ['Three', 'One'] });
    expect(messages.some((m) => m.includes(`field ${seeded.singleName}`))).toBe(true);
    expect(JSON.stringify({ report, messages })).not.toContain('admin-secret');
  });

  it('creates the users the grants name without a usable password, and the group with its members', async () => {
    const login = await target.http.get('/rest/api/2/myself').set('Authorization', `Basic ${Buffer.from(`${seeded.editor}:${seeded.editor}-pw`).toString('base64')}`);
    expect(login.status).toBe(401);
    const members = await target.http.get(`/rest/api/2/group/member?groupname=${seeded.group}`).set('Authorization', target.adminAuth).expect(200);
    expect(members.body.values.map((u: { name: string }) => u.name)).toEqual([seeded.member]);
  });

  it('a re-run changes nothing and reports every field unchanged', async () => {
    const before = await snapshot(target, seeded.tree);
    const report = await run();
    expect(report.units.map((u) => u.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(report.units.find((u) => u.name.includes(String(seeded.tree)))!.counts.options).toEqual({ created: 0, updated: 0, unchanged: 10 });
    expect(report.usersWithoutPassword).toEqual([]);
    expect(await snapshot(target, seeded.tree)).toEqual(before);
  });

  it('brings a change across: an option renamed, one added, a reorder, a new grant, a new context with options and a default; the other fields stay unchanged', async () => {
    const p = paths(seeded.single, 'default');
    const list = (await source.http.get(p.options).set('Authorization', source.adminAuth).expect(200)).body as OptionJson[];
    const red = list.find((o) => o.optionvalue === 'Red')!;
    const green = list.find((o) => o.optionvalue === 'Green')!;
    await send(source, 'put', p.option(red.id), { optionvalue: 'Crimson' });
    await send(source, 'post', p.move(green.id), { position: 'First' });
    await addOptions(source, source.adminAuth, p.options, ['Violet']);
    await grant(source, seeded.single, { user: seeded.editor });
    const ctx = await createContext(source, seeded.single, { name: 'Added later' });
    const added = await addOptions(source, source.adminAuth, paths(seeded.single, ctx.id).options, ['Alpha', 'Beta']);
    await send(source, 'put', paths(seeded.single, ctx.id).default, { optionId: added[1]!.id });

    const report = await run();
    const unit = report.units.find((u) => u.name.includes(String(seeded.single)))!;
    expect(unit.outcome, JSON.stringify(unit)).toBe('imported');
    expect(unit.counts.options?.created).toBe(3);
    expect(unit.counts.contexts).toEqual({ created: 1, updated: 0, unchanged: 1 });
    expect(unit.counts.defaults).toEqual({ created: 1, updated: 0, unchanged: 1 });
    expect(unit.counts.options?.updated).toBeGreaterThanOrEqual(2);
    expect(unit.counts.grants).toMatchObject({ created: 1 });
    expect(report.units.filter((u) => u !== unit).map((u) => u.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(await snapshot(target, seeded.single)).toEqual(await snapshot(source, seeded.single));
    expect((await run()).units.map((u) => u.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });

  it('follows options by id through swapped names, and keeps an option added here after the source\'s own', async () => {
    const p = paths(seeded.multi, 'default');
    await addOptions(target, target.adminAuth, p.options, ['Local only']);
    const list = (await source.http.get(p.options).set('Authorization', source.adminAuth).expect(200)).body as OptionJson[];
    const id = (v: string) => list.find((o) => o.optionvalue === v)!.id;
    await send(source, 'put', p.option(id('One')), { optionvalue: 'Swap' });
    await send(source, 'put', p.option(id('Three')), { optionvalue: 'One' });
    await send(source, 'put', p.option(id('One')), { optionvalue: 'Three' });
    await send(source, 'put', p.option(id('Two')), { optionvalue: 'Deux' });

    const unit = (await run()).units.find((u) => u.name.includes(String(seeded.multi)))!;
    expect(unit.outcome, JSON.stringify(unit)).toBe('imported');
    expect(unit.counts.options).toEqual({ created: 0, updated: 3, unchanged: 0 });
    expect(unit.skipped).toEqual({ 'options here that the source does not have (kept, after its own)': 1 });
    const here = (await target.http.get(p.options).set('Authorization', target.adminAuth).expect(200)).body as OptionJson[];
    const renamed: Record<string, string> = { One: 'Three', Three: 'One', Two: 'Deux' };
    expect(here.map((o) => [o.id, o.optionvalue])).toEqual([...list.map((o) => [o.id, renamed[o.optionvalue]]), [here[3]!.id, 'Local only']]);
    // The default names the same options (by id) on both: Three and One swapped names, so it reads One, Three.
    const dflt = (await target.http.get(p.default).set('Authorization', target.adminAuth).expect(200)).body;
    expect(dflt.defaultOptions.map((o: OptionJson) => o.optionvalue)).toEqual(['One', 'Three']);
  });
});
