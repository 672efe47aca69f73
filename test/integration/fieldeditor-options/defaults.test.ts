import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, grant, paths, type FieldType } from '../../helpers/tracker-fixtures.ts';
import { readDefaultValue } from '../../../src/fieldeditor/options/defaults.repository.ts';

// U15: default values per context for every field type, read and write models.
describe('field editor default values', () => {
  const t = useTestApp();
  let bob: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-defaults');
  });

  async function field(type: FieldType, context: 'default' | 'numeric' = 'default') {
    const f = await createField(t, { type });
    await grant(t, f.id, { user: bob.name });
    const ctx = context === 'default' ? 'default' : (await createContext(t, f.id)).id;
    return { f, ctx, p: paths(f.id, ctx) };
  }
  const get = (path: string) => t.http.get(path).set('Authorization', bob.auth);
  const put = (path: string, body: object) => t.http.put(path).set('Authorization', bob.auth).send(body);
  const del = (path: string) => t.http.delete(path).set('Authorization', bob.auth);

  for (const type of ['singleselect', 'radiobuttons'] as const) {
    for (const context of ['default', 'numeric'] as const) {
      it(`sets, reads and deletes the default of a ${type} (${context} context)`, async () => {
        const { p } = await field(type, context);
        expect((await get(p.default).expect(200)).body).toEqual({});
        const [a, b] = await addOptions(t, bob.auth, p.options, ['A', 'B']);
        const set = await put(p.default, { optionId: b!.id, childOptionId: null, optionIds: null }).expect(200);
        expect(set.body).toEqual({
          defaultOption: { optionvalue: 'B', id: b!.id, sequence: 1, disabled: false },
          defaultChildOption: null,
          defaultOptions: null,
        });
        expect((await get(p.default).expect(200)).body).toEqual(set.body);
        await put(p.default, { optionId: String(a!.id) }).expect(200);
        expect((await get(p.default).expect(200)).body.defaultOption.id).toBe(a!.id);
        const gone = await del(p.default).expect(204);
        expect(gone.text).toBe('');
        expect((await get(p.default).expect(200)).body).toEqual({});
        await del(p.default).expect(204);
      });
    }
  }

  for (const type of ['multiselect', 'multicheckboxes'] as const) {
    it(`sets several defaults of a ${type}`, async () => {
      const { p } = await field(type, 'numeric');
      const [a, b, c] = await addOptions(t, bob.auth, p.options, ['A', 'B', 'C']);
      const set = await put(p.default, { optionIds: [c!.id, a!.id, c!.id] }).expect(200);
      expect(set.body.defaultOption).toBeNull();
      expect(set.body.defaultOptions.map((o: { id: number }) => o.id)).toEqual([c!.id, a!.id]);
      expect((await get(p.default).expect(200)).body).toEqual(set.body);
      // Deleting one of them removes it from the default.
      await del(p.option(c!.id)).expect(200);
      expect((await get(p.default).expect(200)).body.defaultOptions.map((o: { id: number }) => o.id)).toEqual([a!.id]);
      expect((await put(p.default, { optionId: b!.id }).expect(400)).body.errors[0].name).toBe('optionIds');
      expect((await put(p.default, { optionIds: [] }).expect(200)).body).toEqual({});
    });
  }

  for (const type of ['cascadingselect', 'multilevel'] as const) {
    it(`sets a parent and child default of a ${type}`, async () => {
      const { f, p } = await field(type);
      const [cats, dogs] = await addOptions(t, bob.auth, p.options, ['Cats', 'Dogs']);
      const [tabby] = await addOptions(t, bob.auth, p.children(cats!.id), ['Tabby']);
      const [rex] = await addOptions(t, bob.auth, p.children(dogs!.id), ['Rex']);
      const set = await put(p.default, { optionId: cats!.id, childOptionId: tabby!.id }).expect(200);
      expect(set.body).toMatchObject({ defaultOption: { id: cats!.id }, defaultChildOption: { id: tabby!.id }, defaultOptions: null });
      // A child that is not a child of the given parent.
      const wrong = await put(p.default, { optionId: cats!.id, childOptionId: rex!.id }).expect(400);
      expect(wrong.body.errors[0].name).toBe('childOptionId');
      // A child named as the parent.
      expect((await put(p.default, { optionId: tabby!.id }).expect(400)).body.errors[0].name).toBe('optionId');
      // Only a parent is fine too.
      expect((await put(p.default, { optionId: dogs!.id }).expect(200)).body.defaultChildOption).toBeNull();
      await put(p.default, { optionId: cats!.id, childOptionId: tabby!.id }).expect(200);
      // Deleting the child keeps the parent as default; deleting the parent clears it.
      await del(p.child(cats!.id, tabby!.id)).expect(200);
      expect((await get(p.default).expect(200)).body).toMatchObject({ defaultOption: { id: cats!.id }, defaultChildOption: null });
      await del(p.option(cats!.id)).expect(200);
      expect((await get(p.default).expect(200)).body).toEqual({});
      // The shared read function (U3) gives the same.
      expect(await readDefaultValue(t.services.db.knex, { id: f.id, typeKey: 'x' }, { id: f.defaultContextId })).toEqual({});
    });
  }

  it('refuses options of another context, disabled options, unknown ids and wrong types with 400', async () => {
    const { f, p } = await field('singleselect');
    const other = (await createContext(t, f.id)).id;
    const [foreign] = await addOptions(t, bob.auth, paths(f.id, other).options, ['Foreign']);
    const [off] = await addOptions(t, bob.auth, p.options, ['Off']);
    await t.http.put(p.option(off!.id)).set('Authorization', bob.auth).send({ disabled: true }).expect(200);
    for (const [body, name] of [
      [{ optionId: foreign!.id }, 'optionId'],
      [{ optionId: off!.id }, 'optionId'],
      [{ optionId: 99999999 }, 'optionId'],
      [{}, 'optionId'],
      [{ optionId: 'abc' }, 'optionId'],
      [{ optionId: 1.5 }, 'optionId'],
    ] as const) {
      const res = await put(p.default, body).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, subCode: 400000 });
      expect(res.body.errors[0].name).toBe(name);
    }
    expect((await put(paths(f.id, 'default').default, { optionIds: 'x' }).expect(400)).body.errors[0].name).toBe('optionIds');
    expect((await get(p.default).expect(200)).body).toEqual({});
  });

  it('answers 400 on a field type without options', async () => {
    const { p } = await field('textfield');
    expect((await get(p.default).expect(400)).body.errors[0].name).toBe('customFieldId');
    await put(p.default, { optionId: 1 }).expect(400);
  });
});
