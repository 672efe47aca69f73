import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { createField, createProject, FE, paths } from '../../helpers/tracker-fixtures.ts';

interface Entry {
  id: number;
  actor: string;
  kind: string;
  field_id: number | null;
  context_id: number | null;
  target: Record<string, unknown>;
  before: unknown;
  after: unknown;
}

/**
 * Every change made through the field editor writes exactly one event-log entry, in its own transaction:
 * with the right actor, target and before/after; a change that fails writes none.
 */
describe('event log entries of field-editor changes', () => {
  let t: TestApp;
  let owner: TestUser;
  let mark = 0;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser(uniq('owner'));
  });
  afterAll(() => t.close());

  /** The entries written since the last call. */
  const newEntries = async (): Promise<Entry[]> => {
    const rows = (await t.services.db.knex('event_log').where('id', '>', mark).orderBy('id')) as Entry[];
    if (rows.length > 0) mark = rows.at(-1)!.id;
    return rows;
  };
  /** Exactly one new entry. */
  const one = async (): Promise<Entry> => {
    const rows = await newEntries();
    expect(rows.map((r) => r.kind)).toHaveLength(1);
    return rows[0]!;
  };
  const none = async () => expect((await newEntries()).map((r) => r.kind)).toEqual([]);
  const admin = (req: ReturnType<TestApp['http']['get']>) => req.set('Authorization', t.adminAuth);

  it('grants: A3, A4 grant and revoke, A10; an unknown user writes nothing', async () => {
    const field = await createField(t);
    await newEntries();
    await admin(t.http.put(`${FE}/admin/customfields/${field.id}`)).send({ userlist: [owner.name], grouplist: [] }).expect(200);
    expect(await one()).toMatchObject({
      actor: 'admin',
      kind: 'grants.replaced',
      field_id: field.id,
      target: { type: 'grants', scope: 'global' },
      before: { userlist: [], grouplist: [] },
      after: { userlist: [owner.name], grouplist: [] },
    });
    await admin(t.http.patch(`${FE}/admin/customfields/${field.id}`)).send({ group: 'users', action: 'GRANT', type: 'CONTEXT', contextId: 'default' }).expect(200);
    expect(await one()).toMatchObject({
      kind: 'grant.granted',
      context_id: field.defaultContextId,
      target: { type: 'group', name: 'users', scope: 'context' },
      before: { contextId: field.defaultContextId, userlist: [], grouplist: [] },
      after: { contextId: field.defaultContextId, userlist: [], grouplist: ['users'] },
    });
    await admin(t.http.patch(`${FE}/admin/customfields/${field.id}`)).send({ group: 'users', action: 'REVOKE', type: 'CONTEXT', contextId: 'default' }).expect(200);
    expect(await one()).toMatchObject({ kind: 'grant.revoked', before: { grouplist: ['users'] }, after: { grouplist: [] } });
    await admin(t.http.put(`${FE}/admin/customfields/${field.id}/contexts/permissions`))
      .send([{ contextId: 'default', userlist: [owner.name], grouplist: [] }])
      .expect(200);
    expect(await one()).toMatchObject({
      kind: 'grants.replaced',
      target: { type: 'grants', scope: 'contexts' },
      before: [{ contextId: field.defaultContextId, userlist: [], grouplist: [] }],
      after: [{ contextId: field.defaultContextId, userlist: [owner.name], grouplist: [] }],
    });
    await admin(t.http.put(`${FE}/admin/customfields/${field.id}`)).send({ userlist: ['nobody-at-all'], grouplist: [] }).expect(400);
    await admin(t.http.patch(`${FE}/admin/customfields/${field.id}`)).send({ user: 'nobody-at-all', action: 'GRANT', type: 'GLOBAL' }).expect(400);
    await none();
  });

  it('options: create, rename, disable, enable, move, sort, delete with children; a duplicate writes nothing', async () => {
    const field = await createField(t, { type: 'cascadingselect' });
    await admin(t.http.put(`${FE}/admin/customfields/${field.id}`)).send({ userlist: [owner.name], grouplist: [] }).expect(200);
    await newEntries();
    const p = paths(field.id, 'default');
    const as = (req: ReturnType<TestApp['http']['get']>) => req.set('Authorization', owner.auth);
    const b = (await as(t.http.post(p.options)).send({ optionvalue: 'Beta' }).expect(200)).body;
    expect(await one()).toMatchObject({
      actor: owner.name,
      kind: 'option.created',
      field_id: field.id,
      context_id: field.defaultContextId,
      target: { type: 'option', id: b.id, parentId: null },
      before: null,
      after: { optionvalue: 'Beta', id: b.id, sequence: 0, disabled: false },
    });
    const a = (await as(t.http.post(p.options)).send({ optionvalue: 'Alpha' }).expect(200)).body;
    // The entry's rank is the new option's (ap_option_create writes the entry in the same call as the row).
    expect(await one()).toMatchObject({ kind: 'option.created', target: { id: a.id }, after: { id: a.id, sequence: 1 } });
    await as(t.http.post(p.options)).send({ optionvalue: 'alpha' }).expect(400);
    await none();
    await as(t.http.put(p.option(a.id))).send({ optionvalue: 'Aleph' }).expect(200);
    expect(await one()).toMatchObject({ kind: 'option.renamed', target: { id: a.id }, before: { optionvalue: 'Alpha', sequence: 1 }, after: { optionvalue: 'Aleph', sequence: 1 } });
    await as(t.http.put(p.option(a.id))).send({ disabled: true }).expect(200);
    expect(await one()).toMatchObject({ kind: 'option.disabled', before: { disabled: false }, after: { disabled: true } });
    await as(t.http.put(p.option(a.id))).send({ disabled: false }).expect(200);
    expect(await one()).toMatchObject({ kind: 'option.enabled', before: { disabled: true }, after: { disabled: false } });
    await as(t.http.post(p.move(a.id))).send({ position: 'First' }).expect(200);
    expect(await one()).toMatchObject({ kind: 'option.moved', target: { id: a.id }, before: { sequence: 1 }, after: { sequence: 0 } });
    await as(t.http.put(p.sort)).send({ locale: 'en-US', order: 'DESCENDING' }).expect(200);
    expect(await one()).toMatchObject({ kind: 'option.sorted', target: { type: 'optionList', parentId: null }, after: { count: 2, order: 'DESCENDING' } });
    const child = (await as(t.http.post(p.children(b.id))).send({ optionvalue: 'Beta child' }).expect(200)).body;
    expect(await one()).toMatchObject({ kind: 'option.created', target: { type: 'childOption', id: child.id, parentId: b.id } });
    await as(t.http.delete(p.option(b.id))).expect(200);
    expect(await one()).toMatchObject({ kind: 'option.deleted', target: { id: b.id }, before: { optionvalue: 'Beta', deletedIds: expect.arrayContaining([b.id, child.id]) } });
    await as(t.http.delete(p.option(b.id))).expect(404);
    await none();
  });

  it('defaults: set and delete; an option of another list writes nothing', async () => {
    const field = await createField(t);
    await admin(t.http.put(`${FE}/admin/customfields/${field.id}`)).send({ userlist: [owner.name], grouplist: [] }).expect(200);
    const p = paths(field.id, 'default');
    const o = (await t.http.post(p.options).set('Authorization', owner.auth).send({ optionvalue: 'High' }).expect(200)).body;
    await newEntries();
    await t.http.put(p.default).set('Authorization', owner.auth).send({ optionId: o.id }).expect(200);
    expect(await one()).toMatchObject({
      actor: owner.name,
      kind: 'default.set',
      target: { type: 'default', contextId: field.defaultContextId },
      before: { options: [] },
      after: { options: [{ id: o.id, optionvalue: 'High', parentId: null }] },
    });
    await t.http.put(p.default).set('Authorization', owner.auth).send({ optionId: 999999 }).expect(400);
    await none();
    await t.http.delete(p.default).set('Authorization', owner.auth).expect(204);
    expect(await one()).toMatchObject({ kind: 'default.deleted', before: { options: [{ id: o.id }] }, after: { options: [] } });
  });

  it('contexts: create, update, delete through the field editor; a refused one writes nothing', async () => {
    const field = await createField(t);
    const project = await createProject(t);
    await newEntries();
    const created = (await admin(t.http.post(`${FE}/admin/customfields/${field.id}/contexts`)).send({ name: 'Ops', projectIds: [project.id] }).expect(200)).body;
    expect(await one()).toMatchObject({
      actor: 'admin',
      kind: 'context.created',
      field_id: field.id,
      context_id: created.contextId,
      target: { type: 'context', id: created.contextId },
      before: null,
      after: { contextName: 'Ops' },
    });
    await admin(t.http.post(`${FE}/admin/customfields/${field.id}/contexts`)).send({ name: 'Twice', projectIds: [project.id] }).expect(400);
    await none();
    await admin(t.http.put(`${FE}/admin/customfields/${field.id}/contexts/${created.contextId}`)).send({ name: 'Operations' }).expect(200);
    expect(await one()).toMatchObject({ kind: 'context.updated', before: { contextName: 'Ops' }, after: { contextName: 'Operations' } });
    await admin(t.http.delete(`${FE}/admin/customfields/${field.id}/contexts/${created.contextId}`)).expect(200);
    expect(await one()).toMatchObject({ kind: 'context.deleted', before: { contextName: 'Operations' }, after: null });
    await admin(t.http.delete(`${FE}/admin/customfields/${field.id}/contexts/default`)).expect(400);
    await none();
  });

  it('settings changes', async () => {
    await newEntries();
    await admin(t.http.put(`${FE}/admin/settings`)).send({ onlyAdminsMayDeleteOptions: true }).expect(200);
    expect(await one()).toMatchObject({
      actor: 'admin',
      kind: 'settings.changed',
      before: { onlyAdminsMayDeleteOptions: false },
      after: { onlyAdminsMayDeleteOptions: true },
    });
    await admin(t.http.put(`${FE}/admin/settings`)).send({ onlyAdminsMayDeleteOptions: 'maybe' }).expect(400);
    await none();
    await admin(t.http.put(`${FE}/admin/settings`)).send({ onlyAdminsMayDeleteOptions: false }).expect(200);
    await one();
  });

  it('a user or group deleted, with the grants removed because of it; a refused deletion writes nothing', async () => {
    const field = await createField(t);
    const gone = await t.createUser(uniq('gone'));
    const group = uniq('grp');
    await admin(t.http.post('/rest/api/2/group')).send({ name: group }).expect(201);
    await admin(t.http.put(`${FE}/admin/customfields/${field.id}`)).send({ userlist: [gone.name], grouplist: [group] }).expect(200);
    await newEntries();
    await admin(t.http.delete(`/rest/api/2/user?username=${gone.name}`)).expect(204);
    expect(await one()).toMatchObject({
      actor: 'admin',
      kind: 'user.deleted',
      target: { type: 'user', name: gone.name },
      before: { grants: [{ fieldId: field.id, contextId: null }] },
      after: { grantsRemoved: 1 },
    });
    await admin(t.http.delete(`/rest/api/2/group?groupname=${group}`)).expect(200);
    expect(await one()).toMatchObject({ kind: 'group.deleted', target: { type: 'group', name: group }, after: { grantsRemoved: 1 } });
    await admin(t.http.delete('/rest/api/2/user?username=admin')).expect(400);
    await none();
  });
});
