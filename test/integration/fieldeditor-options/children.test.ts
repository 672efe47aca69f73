import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, grant, listValues, paths, type FieldType } from '../../helpers/tracker-fixtures.ts';

// C1–C6: child options of cascading selects (two levels) and of the multi-level cascading select (any depth).
describe('field editor child options', () => {
  const t = useTestApp();
  let bob: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-children');
  });

  async function field(type: FieldType, context: 'default' | 'numeric' = 'default') {
    const f = await createField(t, { type });
    await grant(t, f.id, { user: bob.name });
    const ctx = context === 'default' ? 'default' : (await createContext(t, f.id)).id;
    return { f, p: paths(f.id, ctx) };
  }

  for (const context of ['default', 'numeric'] as const) {
    it(`manages the children of a cascading select (${context} context)`, async () => {
      const { p } = await field('cascadingselect', context);
      const [cats, dogs] = await addOptions(t, bob.auth, p.options, ['Cats', 'Dogs']);
      const kids = await addOptions(t, bob.auth, p.children(cats!.id), ['Tabby', 'Siamese', 'Persian']);
      expect(kids.map((k) => k.sequence)).toEqual([0, 1, 2]);
      // Children are not part of the top-level list, and each parent has its own list.
      expect(await listValues(t, bob.auth, p.options)).toEqual(['Cats', 'Dogs']);
      expect(await listValues(t, bob.auth, p.children(dogs!.id))).toEqual([]);
      // The same value under another parent is fine; under the same parent it is a duplicate.
      await addOptions(t, bob.auth, p.children(dogs!.id), ['Tabby']);
      const dup = await t.http.post(p.children(cats!.id)).set('Authorization', bob.auth).send({ optionvalue: 'TABBY' }).expect(400);
      expect(dup.body.errors[0]).toMatchObject({ name: 'optionvalue' });

      const [tabby, siamese, persian] = kids;
      await t.http.put(p.child(cats!.id, siamese!.id)).set('Authorization', bob.auth).send({ disabled: true }).expect(200);
      await t.http.post(p.childMove(cats!.id, persian!.id)).set('Authorization', bob.auth).send({ position: 'First' }).expect(200);
      expect(await listValues(t, bob.auth, p.children(cats!.id))).toEqual(['Persian', 'Tabby', 'Siamese']);
      await t.http.post(p.childMove(cats!.id, persian!.id)).set('Authorization', bob.auth).send({ after: siamese!.id }).expect(200);
      expect(await listValues(t, bob.auth, p.children(cats!.id))).toEqual(['Tabby', 'Siamese', 'Persian']);
      await t.http.put(p.childSort(cats!.id)).set('Authorization', bob.auth).send({ locale: 'en-US', order: 'ASCENDING' }).expect(200);
      expect(await listValues(t, bob.auth, p.children(cats!.id))).toEqual(['Persian', 'Siamese', 'Tabby']);
      await t.http.post(p.childSort(cats!.id)).set('Authorization', bob.auth).send({ locale: 'en-US', order: 'DESCENDING' }).expect(200);
      expect(await listValues(t, bob.auth, p.children(cats!.id))).toEqual(['Tabby', 'Siamese', 'Persian']);

      const del = await t.http.delete(p.child(cats!.id, tabby!.id)).set('Authorization', bob.auth).expect(200);
      expect(del.body).toEqual({ id: tabby!.id });
      expect(await listValues(t, bob.auth, p.children(cats!.id))).toEqual(['Siamese', 'Persian']);

      // Deleting a parent deletes its children.
      await t.http.delete(p.option(cats!.id)).set('Authorization', bob.auth).expect(200);
      expect(await t.services.db.knex('field_options').whereIn('id', [siamese!.id, persian!.id])).toEqual([]);
      await t.http.get(p.children(cats!.id)).set('Authorization', bob.auth).expect(404);
    });
  }

  it('refuses a child that belongs to another parent, and moves after a non-sibling, with 400', async () => {
    const { p } = await field('cascadingselect');
    const [a, b] = await addOptions(t, bob.auth, p.options, ['A', 'B']);
    const [a1] = await addOptions(t, bob.auth, p.children(a!.id), ['a1']);
    const [b1] = await addOptions(t, bob.auth, p.children(b!.id), ['b1']);
    const wrong = await t.http.delete(p.child(b!.id, a1!.id)).set('Authorization', bob.auth).expect(400);
    expect(wrong.body.errors[0].name).toBe('childOptionId');
    await t.http.put(p.child(b!.id, a1!.id)).set('Authorization', bob.auth).send({ optionvalue: 'x' }).expect(400);
    const mv = await t.http.post(p.childMove(a!.id, a1!.id)).set('Authorization', bob.auth).send({ after: b1!.id }).expect(400);
    expect(mv.body.errors[0].name).toBe('after');
    // A top-level option is not a sibling of a child either.
    await t.http.post(p.childMove(a!.id, a1!.id)).set('Authorization', bob.auth).send({ after: b!.id }).expect(400);
    // A child addressed through the top-level endpoints.
    expect((await t.http.put(p.option(a1!.id)).set('Authorization', bob.auth).send({ optionvalue: 'y' }).expect(400)).body.errors[0].name).toBe('optionId');
    await t.http.get(p.children(99999999)).set('Authorization', bob.auth).expect(404);
  });

  it('allows only two levels on a plain cascading select', async () => {
    const { p } = await field('cascadingselect');
    const [a] = await addOptions(t, bob.auth, p.options, ['A']);
    const [a1] = await addOptions(t, bob.auth, p.children(a!.id), ['a1']);
    const res = await t.http.post(p.children(a1!.id)).set('Authorization', bob.auth).send({ optionvalue: 'deep' }).expect(400);
    expect(res.body.errors[0].name).toBe('optionId');
    await t.http.get(p.children(a1!.id)).set('Authorization', bob.auth).expect(400);
  });

  it('manages a three-level tree of a multi-level cascading select; any option can be the parent', async () => {
    for (const context of ['default', 'numeric'] as const) {
      const { p } = await field('multilevel', context);
      const [europe] = await addOptions(t, bob.auth, p.options, ['Europe']);
      const [germany, austria] = await addOptions(t, bob.auth, p.children(europe!.id), ['Germany', 'Austria']);
      const cities = await addOptions(t, bob.auth, p.children(germany!.id), ['München', 'Berlin', 'Köln']);
      const [streets] = await addOptions(t, bob.auth, p.children(cities[1]!.id), ['Unter den Linden']);
      expect(streets?.sequence).toBe(0);
      await t.http.put(p.childSort(germany!.id)).set('Authorization', bob.auth).send({ locale: 'de-DE' }).expect(200);
      expect(await listValues(t, bob.auth, p.children(germany!.id))).toEqual(['Berlin', 'Köln', 'München']);
      await t.http.post(p.childMove(germany!.id, cities[0]!.id)).set('Authorization', bob.auth).send({ position: 'First' }).expect(200);
      expect(await listValues(t, bob.auth, p.children(germany!.id))).toEqual(['München', 'Berlin', 'Köln']);
      await t.http.put(p.child(germany!.id, cities[2]!.id)).set('Authorization', bob.auth).send({ optionvalue: 'Cologne' }).expect(200);
      // Level 3 is not a sibling of level 2.
      await t.http.post(p.childMove(germany!.id, cities[0]!.id)).set('Authorization', bob.auth).send({ after: austria!.id }).expect(400);
      // Deleting a level-2 option takes the levels below with it.
      await t.http.delete(p.child(europe!.id, germany!.id)).set('Authorization', bob.auth).expect(200);
      expect(await t.services.db.knex('field_options').whereIn('id', [...cities.map((c) => c.id), streets!.id])).toEqual([]);
      expect(await listValues(t, bob.auth, p.children(europe!.id))).toEqual(['Austria']);
    }
  });

  for (const type of ['singleselect', 'radiobuttons', 'multiselect', 'multicheckboxes'] as const) {
    it(`answers 400 to every child-option endpoint on a ${type}`, async () => {
      const { p } = await field(type);
      const [o] = await addOptions(t, bob.auth, p.options, ['only']);
      const calls = [
        t.http.get(p.children(o!.id)),
        t.http.post(p.children(o!.id)).send({ optionvalue: 'x' }),
        t.http.put(p.child(o!.id, 1)).send({ optionvalue: 'x' }),
        t.http.delete(p.child(o!.id, 1)),
        t.http.post(p.childMove(o!.id, 1)).send({ position: 'First' }),
        t.http.post(p.childSort(o!.id)).send({ locale: 'en-US' }),
      ];
      for (const call of calls) {
        const res = await call.set('Authorization', bob.auth);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400, subCode: 400000, errors: [expect.objectContaining({ name: 'customFieldId' })] });
      }
    });
  }
});
