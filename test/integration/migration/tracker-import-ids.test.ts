// import-from tracker (issue 31): ids kept where free and mapped where taken, in one list. The target's id
// sequences stand below the source's ids, so an option kept with its own id and one given a new id by the
// sequence would meet, unless the import moves the sequence past the ids it inserted itself; likewise contexts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, grant } from '../../helpers/tracker-fixtures.ts';
import { importFromTracker } from '../../../src/migration/tracker-rest/tracker-import.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import type { MigrationReport } from '../../../src/migration/report.ts';
import { paths, serve, snapshot, type OptionJson } from './tracker-helpers.ts';

describe('importFromTracker: kept and mapped ids side by side', () => {
  const source = useTestApp();
  let target: TestApp;
  let server: { url: string; close: () => Promise<void> };
  let field: { id: number; name: string };
  let sourceOptions: OptionJson[];
  let shared: { id: number; name: string };
  let report: MigrationReport;

  beforeAll(async () => {
    field = await createField(source, { name: uniq('Mixed ') });
    await grant(source, field.id, { user: 'admin' });
    sourceOptions = await addOptions(source, source.adminAuth, paths(field.id, 'default').options, ['a', 'b', 'c', 'd']);
    // Two more contexts, each with an option.
    for (const name of ['First', 'Second']) {
      const ctx = await createContext(source, field.id, { name });
      await addOptions(source, source.adminAuth, paths(field.id, ctx.id).options, [`${name} 1`]);
    }
    // A field both have under the same id, name and type; one option value both have, under other ids.
    shared = await createField(source, { name: uniq('Shared ') });
    await grant(source, shared.id, { user: 'admin' });
    await addOptions(source, source.adminAuth, paths(shared.id, 'default').options, ['p', 'q']);
    server = await serve(source);
    target = await createTestApp();
    // The target's field takes the source field's id, its contexts the source's, its option (and the shared field's) the first ones'.
    const local = await createField(target, { name: uniq('Local ') });
    await grant(target, local.id, { user: 'admin' });
    await addOptions(target, target.adminAuth, paths(local.id, 'default').options, ['x']);
    await createContext(target, local.id, { name: 'Local context' });
    const same = await createField(target, { name: shared.name });
    expect(same.id).toBe(shared.id);
    await grant(target, same.id, { user: 'admin' });
    await addOptions(target, target.adminAuth, paths(same.id, 'default').options, ['zz', 'Q']);
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('keeps the free ids, maps the taken ones, and everything reads the same', async () => {
    report = await importFromTracker(migrationDeps(target.services), {
      url: server.url,
      auth: { user: 'admin', password: 'admin-secret' },
      dryRun: false,
      progress: () => undefined,
    });
    const unit = report.units.find((u) => u.name.endsWith(`(${field.id})`))!;
    expect(unit.outcome, JSON.stringify(unit)).toBe('imported');
    const mapped = (kind: string) => unit.mapped.filter((m) => m.kind === kind);
    expect(mapped('field').map((m) => m.from)).toEqual([field.id]);
    // The target's own options take the ids of a, b and c (also of the other field's): d keeps its id in the same list.
    expect(mapped('option').map((m) => m.from)).toEqual(sourceOptions.slice(0, 3).map((o) => o.id));
    // Its three contexts' ids are taken by the target's two contexts and the shared field's default one.
    expect(mapped('context')).toHaveLength(3);
    const to = Number(mapped('field')[0]!.to);
    const list = (await target.http.get(paths(to, 'default').options).set('Authorization', target.adminAuth).expect(200)).body as OptionJson[];
    expect(list.map((o) => o.optionvalue)).toEqual(['a', 'b', 'c', 'd']);
    expect(list[3]!.id).toBe(sourceOptions[3]!.id);
    expect(await snapshot(target, to, { ids: false })).toEqual(await snapshot(source, field.id, { ids: false }));
    // The sequences stand past every id: the next option made over REST gets a fresh one.
    const [next] = await addOptions(target, target.adminAuth, paths(to, 'default').options, ['e']);
    expect(next!.id).toBeGreaterThan(Math.max(...list.map((o) => o.id)));
  });

  it('adopts a field of the same id, name and type, and an option of the same value under its own id (mapped)', async () => {
    const unit = report.units.find((u) => u.name.endsWith(`(${shared.id})`))!;
    expect(unit.outcome, JSON.stringify(unit)).toBe('imported');
    expect(unit.counts.fields).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect(unit.counts.options).toEqual({ created: 1, updated: 1, unchanged: 0 });
    const here = (await target.http.get(paths(shared.id, 'default').options).set('Authorization', target.adminAuth).expect(200)).body as OptionJson[];
    const there = (await source.http.get(paths(shared.id, 'default').options).set('Authorization', source.adminAuth).expect(200)).body as OptionJson[];
    expect(here.map((o) => o.optionvalue)).toEqual(['p', 'q', 'zz']);
    expect(here[0]!.id).toBe(there[0]!.id);
    expect(unit.mapped).toEqual([{ kind: 'option', from: there[1]!.id, to: here[1]!.id }]);
    expect(unit.skipped).toEqual({ 'options here that the source does not have (kept, after its own)': 1 });
  });
});
