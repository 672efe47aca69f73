// import-from tracker (issue 31): ids kept where free and mapped where taken, in one list. The target's id
// sequences stand below the source's ids, so an option kept with its own id and one given a new id by the
// sequence would meet, unless the import moves the sequence past the ids it inserted itself; likewise contexts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, grant } from '../../helpers/tracker-fixtures.ts';
import { importFromTracker } from '../../../src/migration/tracker-rest/tracker-import.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import { paths, serve, snapshot, type OptionJson } from './tracker-helpers.ts';

describe('importFromTracker: kept and mapped ids side by side', () => {
  const source = useTestApp();
  let target: TestApp;
  let server: { url: string; close: () => Promise<void> };
  let field: { id: number; name: string };
  let sourceOptions: OptionJson[];

  beforeAll(async () => {
    field = await createField(source, { name: uniq('Mixed ') });
    await grant(source, field.id, { user: 'admin' });
    sourceOptions = await addOptions(source, source.adminAuth, paths(field.id, 'default').options, ['a', 'b', 'c']);
    // Two more contexts: the first one's id is taken in the target, the second one's is free.
    for (const name of ['First', 'Second']) {
      const ctx = await createContext(source, field.id, { name });
      await addOptions(source, source.adminAuth, paths(field.id, ctx.id).options, [`${name} 1`]);
    }
    server = await serve(source);
    target = await createTestApp();
    // The target's field takes the source field's id, its default context the source's, one option the first option's id.
    const local = await createField(target, { name: uniq('Local ') });
    await grant(target, local.id, { user: 'admin' });
    await addOptions(target, target.adminAuth, paths(local.id, 'default').options, ['x']);
    await createContext(target, local.id, { name: 'Local context' });
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('keeps the free ids, maps the taken ones, and everything reads the same', async () => {
    const report = await importFromTracker(migrationDeps(target.services), {
      url: server.url,
      auth: { user: 'admin', password: 'admin-secret' },
      dryRun: false,
      progress: () => undefined,
    });
    const unit = report.units[0]!;
    expect(unit.outcome, JSON.stringify(unit)).toBe('imported');
    const mapped = (kind: string) => unit.mapped.filter((m) => m.kind === kind);
    expect(mapped('field').map((m) => m.from)).toEqual([field.id]);
    expect(mapped('option').map((m) => m.from)).toEqual([sourceOptions[0]!.id]);
    expect(mapped('context')).toHaveLength(2);
    const to = Number(mapped('field')[0]!.to);
    const list = (await target.http.get(paths(to, 'default').options).set('Authorization', target.adminAuth).expect(200)).body as OptionJson[];
    expect(list.map((o) => o.optionvalue)).toEqual(['a', 'b', 'c']);
    expect(list.slice(1).map((o) => o.id)).toEqual(sourceOptions.slice(1).map((o) => o.id));
    expect(await snapshot(target, to, { ids: false })).toEqual(await snapshot(source, field.id, { ids: false }));
    // The sequences stand past every id: the next option made over REST gets a fresh one.
    const [next] = await addOptions(target, target.adminAuth, paths(to, 'default').options, ['d']);
    expect(next!.id).toBeGreaterThan(Math.max(...list.map((o) => o.id)));
  });
});
