// import-from tracker (issue 31): a field that fails is left untouched and reported with a one-line reason,
// and the other fields go on: one whose options the importing user may not read at the source (no grant),
// one whose write fails halfway (its field, options, users and group are all rolled back). A later run
// brings the second across once the cause is gone.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, uniq, useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { addOptions, createField, grant } from '../../helpers/tracker-fixtures.ts';
import { grantsRepository } from '../../../src/fieldeditor/grants/grants.repository.ts';
import { importFromTracker } from '../../../src/migration/tracker-rest/tracker-import.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import { hostFields, paths, seedSource, serve, snapshot, type SeededSource } from './tracker-helpers.ts';

describe('importFromTracker: a failing field', () => {
  const source = useTestApp();
  let target: TestApp;
  let seeded: SeededSource;
  let locked: { id: number; name: string };
  let server: { url: string; close: () => Promise<void> };
  const run = () =>
    importFromTracker(migrationDeps(target.services), { url: server.url, auth: { user: 'admin', password: 'admin-secret' }, dryRun: false, progress: () => undefined });

  beforeAll(async () => {
    seeded = await seedSource(source);
    // Options made by a granted user; the importing administrator holds no grant on this field.
    const maker = uniq('maker');
    const made = await source.createUser(maker);
    locked = await createField(source, { name: uniq('Locked ') });
    await grant(source, locked.id, { user: maker });
    await addOptions(source, made.auth, paths(locked.id, 'default').options, ['x', 'y']);
    server = await serve(source);
    target = await createTestApp();
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('reports each failed field in one line, leaves it untouched, and imports the others', async () => {
    const add = grantsRepository.add.bind(grantsRepository);
    const spy = vi.spyOn(grantsRepository, 'add').mockImplementation(async (q, fieldId, contextId, principals) => {
      if (fieldId === seeded.single) throw new Error('the disk is full');
      return add(q, fieldId, contextId, principals);
    });
    let report;
    try {
      report = await run();
    } finally {
      spy.mockRestore();
    }
    const byId = (id: number) => report.units.find((u) => u.name.endsWith(`(${id})`))!;
    expect(byId(locked.id)).toMatchObject({ outcome: 'failed', counts: {} });
    expect(byId(locked.id).reason).toMatch(/\/user\/customfields\/\d+\/contexts\/\d+\/options denied access \(403\): the importing user needs a field-editor grant on this field at the source \(global, or on each context\)$/);
    expect(byId(seeded.single)).toMatchObject({ outcome: 'failed', reason: 'the disk is full' });
    expect(byId(seeded.tree).outcome).toBe('imported');
    expect(byId(seeded.multi).outcome).toBe('imported');
    // Nothing of the failed fields is here: not the fields, not the group and member only the single's grant names.
    const names = (await hostFields(target)).map((f) => f.name);
    expect(names).not.toContain(seeded.singleName);
    expect(names).not.toContain(locked.name);
    expect(report.usersWithoutPassword).toEqual([seeded.editor]);
    await target.http.get(`/rest/api/2/user?username=${seeded.member}`).set('Authorization', target.adminAuth).expect(404);
    const groups = await target.http.get(`/rest/api/2/groups/picker?query=${seeded.group}`).set('Authorization', target.adminAuth).expect(200);
    expect(groups.body.groups).toEqual([]);
    expect(JSON.stringify(report)).not.toContain('admin-secret');
  });

  it('a later run brings the field across once the cause is gone; the unchanged ones stay untouched', async () => {
    const report = await run();
    const outcome = (id: number) => report.units.find((u) => u.name.endsWith(`(${id})`))!.outcome;
    expect(outcome(seeded.single)).toBe('imported');
    expect(outcome(seeded.tree)).toBe('unchanged');
    expect(outcome(seeded.multi)).toBe('unchanged');
    expect(outcome(locked.id)).toBe('failed');
    expect(report.usersWithoutPassword).toEqual([seeded.member]);
    expect(await snapshot(target, seeded.single)).toEqual(await snapshot(source, seeded.single));
  });
});
