import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, listValues, paths, setOnlyAdminsMayDelete, type OptionJson } from '../../helpers/tracker-fixtures.ts';

// POST {list}/batch (issue 27): all or nothing, every invalid item named, one operation id in the event log.
describe('field editor option batches', () => {
  const t = useTestApp();
  let bob: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-batch');
    stranger = await t.createUser('stranger-batch');
  });

  async function field(type: 'singleselect' | 'cascadingselect' = 'singleselect') {
    const f = await createField(t, { type });
    await grant(t, f.id, { user: bob.name });
    return { f, p: paths(f.id, 'default') };
  }
  const batch = (url: string, body: unknown, auth = bob.auth) => t.http.post(`${url}/batch`).set('Authorization', auth).send(body as object);
  const values = (list: OptionJson[]) => list.map((o) => o.optionvalue);

  it('creates, renames, disables and deletes in one request and answers the list in order', async () => {
    const { f, p } = await field();
    const [a, b, c] = await addOptions(t, bob.auth, p.options, ['A', 'B', 'C']);
    const res = await batch(p.options, {
      create: [{ optionvalue: 'D' }, { optionvalue: ' E ', disabled: 'true' }],
      update: [{ id: a!.id, optionvalue: 'A1' }, { id: String(b!.id), disabled: true }],
      delete: [c!.id],
    }).expect(200);
    const options = res.body.options as OptionJson[];
    expect(values(options)).toEqual(['A1', 'B', 'D', 'E']);
    expect(options.map((o) => o.sequence)).toEqual([0, 1, 2, 3]);
    expect(options.map((o) => o.disabled)).toEqual([false, true, false, true]);
    expect(await listValues(t, bob.auth, p.options)).toEqual(['A1', 'B', 'D', 'E']);

    // One entry per changed option, all with the same operation id, none for the earlier single creates.
    const entries = await t.services.db.knex('event_log').where('field_id', f.id).whereNotNull('operation_id').orderBy('id');
    expect(entries.map((e) => e.kind).sort()).toEqual(['option.created', 'option.created', 'option.deleted', 'option.disabled', 'option.renamed']);
    expect(new Set(entries.map((e) => e.operation_id)).size).toBe(1);
    const renamed = entries.find((e) => e.kind === 'option.renamed');
    expect(renamed.before).toMatchObject({ optionvalue: 'A', sequence: 0 });
    expect(renamed.after).toMatchObject({ optionvalue: 'A1', sequence: 0 });
    // The event log API shows the operation id on those entries only.
    const log = await t.http.get(`/rest/trackercustomfieldeditorplugin/1/maintenance/event_log_entries?maxResults=20`).set('Authorization', t.adminAuth).expect(200);
    const listed = (log.body.values as { fieldId: number; operationId?: string; kind: string }[]).filter((e) => e.fieldId === f.id);
    expect(listed.filter((e) => e.operationId === entries[0].operation_id)).toHaveLength(5);
    expect(listed.filter((e) => e.operationId === undefined && e.kind.startsWith('option.')).map((e) => e.kind)).toEqual(['option.created', 'option.created', 'option.created']);
  });

  it('swaps two names and reuses the name of an option it deletes', async () => {
    const { p } = await field();
    const [x, y, z] = await addOptions(t, bob.auth, p.options, ['X', 'Y', 'Z']);
    const res = await batch(p.options, {
      update: [{ id: x!.id, optionvalue: 'Y' }, { id: y!.id, optionvalue: 'x' }],
      delete: [z!.id],
      create: [{ optionvalue: 'z' }],
    }).expect(200);
    expect(values(res.body.options)).toEqual(['Y', 'x', 'z']);
  });

  it('names every invalid item and writes nothing', async () => {
    const { f, p } = await field();
    const [a, b] = await addOptions(t, bob.auth, p.options, ['Alpha', 'Beta']);
    const shape = await batch(p.options, { create: [{ optionvalue: 'ok' }, { optionvalue: '' }, {}], update: [{ optionvalue: 'x' }], delete: ['x'] }).expect(400);
    expect(shape.body.errors.map((e: { name: string }) => e.name).sort()).toEqual(['create[1].optionvalue', 'create[2].optionvalue', 'delete[0]', 'update[0].id']);
    // A bad item and a duplicate only the list shows are answered together.
    const both = await batch(p.options, { create: [{ optionvalue: '' }, { optionvalue: 'alpha' }] }).expect(400);
    expect(both.body.errors.map((e: { name: string }) => e.name)).toEqual(['create[0].optionvalue', 'create[1].optionvalue']);
    const res = await batch(p.options, {
      create: [{ optionvalue: 'New' }, { optionvalue: 'ALPHA' }, { optionvalue: 'new' }],
      update: [{ id: 999999, disabled: true }, { id: b!.id, optionvalue: 'alpha' }],
      delete: [a!.id, a!.id],
    }).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, subCode: 400000 });
    const byName = Object.fromEntries((res.body.errors as { name: string; value?: unknown }[]).map((e) => [e.name, e]));
    // Alpha goes, so Beta may take its name; then the new ALPHA collides with Beta's new name, new with New.
    expect(Object.keys(byName).sort()).toEqual(['create[1].optionvalue', 'create[2].optionvalue', 'delete[1]', 'update[0].id']);
    expect(byName['create[1].optionvalue']).toMatchObject({ value: { optionvalue: 'ALPHA', existingOptionId: b!.id } });
    expect(byName['create[2].optionvalue']).toMatchObject({ value: { optionvalue: 'new' } });
    // Alpha stays: b may not take its name, and neither may a new option.
    const again = await batch(p.options, { update: [{ id: b!.id, optionvalue: 'alpha' }], create: [{ optionvalue: 'ALPHA' }] }).expect(400);
    expect(again.body.errors).toEqual([
      expect.objectContaining({ name: 'update[0].optionvalue', value: { optionvalue: 'alpha', existingOptionId: a!.id } }),
      expect.objectContaining({ name: 'create[0].optionvalue', value: { optionvalue: 'ALPHA', existingOptionId: a!.id } }),
    ]);
    expect(await listValues(t, bob.auth, p.options)).toEqual(['Alpha', 'Beta']);
    expect(await t.services.db.knex('event_log').where('field_id', f.id).whereNotNull('operation_id')).toEqual([]);
  });

  it('takes up to 1,000 items and refuses more with 413', async () => {
    const { p } = await field();
    const many = Array.from({ length: 1000 }, (_, i) => ({ optionvalue: `Option ${i}` }));
    const started = Date.now();
    const res = await batch(p.options, { create: many }).expect(200);
    expect(res.body.options).toHaveLength(1000);
    expect(res.body.options[999]).toMatchObject({ optionvalue: 'Option 999', sequence: 999 });
    expect(Date.now() - started).toBeLessThan(10_000);
    const over = await batch(p.options, { create: [{ optionvalue: 'one more' }], delete: Array.from({ length: 1000 }, (_, i) => i + 1) }).expect(413);
    expect(over.body).toMatchObject({ statusCode: 413, subCode: 413000 });
  });

  it('works on the children of one option', async () => {
    const { p } = await field('cascadingselect');
    const [parent] = await addOptions(t, bob.auth, p.options, ['Europe']);
    const res = await batch(p.children(parent!.id), { create: [{ optionvalue: 'Germany' }, { optionvalue: 'France' }] }).expect(200);
    expect(values(res.body.options)).toEqual(['Germany', 'France']);
    const del = await batch(p.options, { delete: [parent!.id] }).expect(200);
    expect(del.body.options).toEqual([]);
    await batch(p.children(999999), { create: [{ optionvalue: 'x' }] }).expect(404);
  });

  it('refuses callers without a grant, anonymous callers, the 1.2 base path and deletes by non-administrators when only they may', async () => {
    const { f, p } = await field();
    const [a] = await addOptions(t, bob.auth, p.options, ['A']);
    await t.http.post(`${p.options}/batch`).send({ create: [] }).expect(401);
    const denied = await batch(p.options, { create: [{ optionvalue: '' }] }, stranger.auth).expect(403);
    expect(denied.body.subCode).toBe(403001);
    await batch(paths(f.id, 99999999).options, { create: [] }).expect(404);
    const old = await batch(paths(f.id, 'default', '/rest/trackercustomfieldeditorplugin/1.2').options, { create: [] }).expect(412);
    expect(old.body.subCode).toBe(412000);
    await setOnlyAdminsMayDelete(t, true);
    try {
      const res = await batch(p.options, { delete: [a!.id], create: [{ optionvalue: 'B' }] }).expect(403);
      expect(res.body.subCode).toBe(403003);
      await batch(p.options, { create: [{ optionvalue: 'B' }] }).expect(200);
    } finally {
      await setOnlyAdminsMayDelete(t, false);
    }
    expect(await listValues(t, bob.auth, p.options)).toEqual(['A', 'B']);
  });
});
