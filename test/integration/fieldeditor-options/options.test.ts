import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, grant, listValues, paths, type OptionJson } from '../../helpers/tracker-fixtures.ts';

// U4–U13 on the default context (literal `default` and its numeric id) and on a second context.
describe('field editor options: list, create, update, delete', () => {
  const t = useTestApp();
  let bob: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-options');
  });

  async function grantedField() {
    const f = await createField(t, { type: 'singleselect' });
    await grant(t, f.id, { user: bob.name });
    return f;
  }

  for (const which of ['default', 'numeric default', 'second context'] as const) {
    it(`creates, lists, renames, disables and deletes options (${which})`, async () => {
      const f = await grantedField();
      const ctxId = which === 'default' ? 'default' : which === 'numeric default' ? f.defaultContextId : (await createContext(t, f.id)).id;
      const p = paths(f.id, ctxId);
      expect((await t.http.get(p.options).set('Authorization', bob.auth).expect(200)).body).toEqual([]);

      const [a, b, c] = await addOptions(t, bob.auth, p.options, ['Alpha', 'Beta', 'Gamma']);
      expect(a).toEqual({ optionvalue: 'Alpha', id: expect.any(Number), sequence: 0, disabled: false });
      expect(c?.sequence).toBe(2);
      expect(await listValues(t, bob.auth, p.options)).toEqual(['Alpha', 'Beta', 'Gamma']);

      const renamed = await t.http.put(p.option(b!.id)).set('Authorization', bob.auth).send({ optionvalue: '  Bravo ' }).expect(200);
      expect(renamed.body).toEqual({ optionvalue: 'Bravo', id: b!.id, sequence: 1, disabled: false });
      const disabled = await t.http.put(p.option(b!.id)).set('Authorization', bob.auth).send({ disabled: 'true' }).expect(200);
      expect(disabled.body).toMatchObject({ optionvalue: 'Bravo', disabled: true });

      const del = await t.http.delete(p.option(a!.id)).set('Authorization', bob.auth).expect(200);
      expect(del.body).toEqual({ id: a!.id });
      const list = (await t.http.get(p.options).set('Authorization', bob.auth).expect(200)).body as OptionJson[];
      // The disabled option stays in the list; sequences close the gap.
      expect(list).toEqual([
        { optionvalue: 'Bravo', id: b!.id, sequence: 0, disabled: true },
        { optionvalue: 'Gamma', id: c!.id, sequence: 1, disabled: false },
      ]);
    });
  }

  it('keeps the default context and other contexts apart; `default` and its numeric id are one list', async () => {
    const f = await grantedField();
    const other = (await createContext(t, f.id)).id;
    await addOptions(t, bob.auth, paths(f.id, 'default').options, ['InDefault']);
    expect(await listValues(t, bob.auth, paths(f.id, f.defaultContextId).options)).toEqual(['InDefault']);
    expect(await listValues(t, bob.auth, paths(f.id, other).options)).toEqual([]);
    // The same value may exist in another context.
    await addOptions(t, bob.auth, paths(f.id, other).options, ['InDefault']);
  });

  it('ignores a sent id and sequence on create and appends at the end', async () => {
    const f = await grantedField();
    const p = paths(f.id, 'default');
    await addOptions(t, bob.auth, p.options, ['one', 'two']);
    const res = await t.http.post(p.options).set('Authorization', bob.auth).send({ optionvalue: 'three', id: 5, sequence: 0, extra: 'x' }).expect(200);
    expect(res.body.sequence).toBe(2);
    expect(res.body.id).not.toBe(5);
    expect(res.body).not.toHaveProperty('extra');
    expect(await listValues(t, bob.auth, p.options)).toEqual(['one', 'two', 'three']);
  });

  it('refuses a duplicate value among siblings without regard to case, naming the existing id', async () => {
    const f = await grantedField();
    const p = paths(f.id, 'default');
    const [first, second] = await addOptions(t, bob.auth, p.options, ['Red', 'Green']);
    const dup = await t.http.post(p.options).set('Authorization', bob.auth).send({ optionvalue: ' rED ' }).expect(400);
    expect(dup.body).toMatchObject({ statusCode: 400, subCode: 400000, message: 'validation errors' });
    const entries = dup.body.errors as { name: string; message: string }[];
    expect(entries.filter((e) => e.name === 'optionvalue')).toEqual([
      expect.objectContaining({ message: 'This option value does already exist. Option values need to be unique.' }),
    ]);
    expect(entries.some((e) => e.name !== 'optionvalue' && e.message.includes(String(first!.id)))).toBe(true);
    // Rename onto a sibling's value: same answer.
    const clash = await t.http.put(p.option(second!.id)).set('Authorization', bob.auth).send({ optionvalue: 'red' }).expect(400);
    expect(clash.body.errors[0]).toMatchObject({ name: 'optionvalue' });
    // A rename that only changes case is accepted.
    const caseOnly = await t.http.put(p.option(first!.id)).set('Authorization', bob.auth).send({ optionvalue: 'RED' }).expect(200);
    expect(caseOnly.body.optionvalue).toBe('RED');
  });

  it('validates values and types, naming the property', async () => {
    const f = await grantedField();
    const p = paths(f.id, 'default');
    const [o] = await addOptions(t, bob.auth, p.options, ['keep']);
    const cases: [unknown, string][] = [
      [{}, 'optionvalue'],
      [{ optionvalue: '   ' }, 'optionvalue'],
      [{ optionvalue: 'x'.repeat(256) }, 'optionvalue'],
      [{ optionvalue: true }, 'optionvalue'],
      [{ optionvalue: 'ok', disabled: 'maybe' }, 'disabled'],
      [{ optionvalue: 'ok', disabled: 3 }, 'disabled'],
    ];
    for (const [body, name] of cases) {
      const res = await t.http.post(p.options).set('Authorization', bob.auth).send(body as object).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, subCode: 400000 });
      expect(res.body.errors.map((e: { name: string }) => e.name)).toContain(name);
    }
    const arr = await t.http.post(p.options).set('Authorization', bob.auth).send([{ optionvalue: 'a' }]).expect(400);
    expect(arr.body.errors).toHaveLength(1);
    expect((await t.http.put(p.option(o!.id)).set('Authorization', bob.auth).send({ disabled: {} }).expect(400)).body.errors[0].name).toBe('disabled');
    expect((await t.http.put(p.option('abc')).set('Authorization', bob.auth).send({}).expect(400)).body.errors[0].name).toBe('optionId');
    // 255 characters are fine, and a number is taken as its text.
    await t.http.post(p.options).set('Authorization', bob.auth).send({ optionvalue: 'y'.repeat(255) }).expect(200);
    expect((await t.http.post(p.options).set('Authorization', bob.auth).send({ optionvalue: 42 }).expect(200)).body.optionvalue).toBe('42');
    expect((await t.http.post(p.options).set('Authorization', bob.auth).send('{bad json').set('Content-Type', 'application/json').expect(400)).body.errors).toBeInstanceOf(Array);
  });

  it('accepts partial PUT bodies and string booleans; an empty body changes nothing', async () => {
    const f = await grantedField();
    const p = paths(f.id, 'default');
    const [o] = await addOptions(t, bob.auth, p.options, ['partial']);
    await t.http.put(p.option(o!.id)).set('Authorization', bob.auth).send({ disabled: 'TRUE' }).expect(200);
    const back = await t.http.put(p.option(o!.id)).set('Authorization', bob.auth).send({ disabled: 'false', sequence: 9 }).expect(200);
    expect(back.body).toEqual({ optionvalue: 'partial', id: o!.id, sequence: 0, disabled: false });
    const same = await t.http.put(p.option(o!.id)).set('Authorization', bob.auth).send({}).expect(200);
    expect(same.body).toEqual(back.body);
    const created = await t.http.post(p.options).set('Authorization', bob.auth).send({ optionvalue: 'off', disabled: 'true' }).expect(200);
    expect(created.body.disabled).toBe(true);
  });

  it('answers 404 for an option of another context and 400 for a child addressed as a top-level option', async () => {
    const f = await grantedField();
    const other = (await createContext(t, f.id)).id;
    const [o] = await addOptions(t, bob.auth, paths(f.id, other).options, ['elsewhere']);
    const p = paths(f.id, 'default');
    const res = await t.http.put(p.option(o!.id)).set('Authorization', bob.auth).send({ optionvalue: 'x' }).expect(404);
    expect(res.body).toMatchObject({ statusCode: 404, subCode: 404000 });
    await t.http.delete(p.option(o!.id)).set('Authorization', bob.auth).expect(404);
    await t.http.post(p.move(o!.id)).set('Authorization', bob.auth).send({ position: 'First' }).expect(404);
    await t.http.delete(p.option(99999999)).set('Authorization', bob.auth).expect(404);
  });

  it('answers 400 for options of a field type the editor does not manage', async () => {
    const f = await createField(t, { type: 'textfield' });
    await grant(t, f.id, { user: bob.name });
    const res = await t.http.get(paths(f.id, 'default').options).set('Authorization', bob.auth).expect(400);
    expect(res.body.errors[0].name).toBe('customFieldId');
  });

  it('serves the same list under every base path', async () => {
    const f = await grantedField();
    await addOptions(t, bob.auth, paths(f.id, 'default').options, ['everywhere']);
    for (const base of ['/rest/trackercustomfieldeditorplugin/1.2', '/rest/jiracustomfieldeditorplugin/1', '/rest/jiracustomfieldeditorplugin/1.2']) {
      expect(await listValues(t, bob.auth, paths(f.id, 'default', base).options)).toEqual(['everywhere']);
    }
  });

  it('lists values with quotes, backslashes and non-ASCII exactly; gzip when accepted, plain otherwise', async () => {
    const f = await grantedField();
    const p = paths(f.id, 'default');
    const tricky = ['say "hi"', 'back\\slash', 'Grüße \u2603 \ud83d\ude00', '<tag> & \t tab', 'x'.repeat(255)];
    await addOptions(t, bob.auth, p.options, [...tricky, ...Array.from({ length: 60 }, (_, i) => `filler ${i}`)]);
    const plain = await t.http.get(p.options).set('Authorization', bob.auth).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/application\/json/);
    expect((plain.body as OptionJson[]).slice(0, tricky.length).map((o) => o.optionvalue)).toEqual(tricky);
    expect(Object.keys((plain.body as OptionJson[])[0]!)).toEqual(['optionvalue', 'id', 'sequence', 'disabled']);
    const zipped = await t.http.get(p.options).set('Authorization', bob.auth).set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(zipped.body).toEqual(plain.body);
    // A write is visible at once (the cached list is replaced by version).
    await t.http.put(p.option((plain.body as OptionJson[])[0]!.id)).set('Authorization', bob.auth).send({ optionvalue: 'changed' }).expect(200);
    expect((await t.http.get(p.options).set('Authorization', bob.auth).expect(200)).body[0].optionvalue).toBe('changed');
  });

  it('records each change in the event log, in order, with its actor, field, context, before and after', async () => {
    const f = await grantedField();
    const p = paths(f.id, 'default');
    const [o] = await addOptions(t, bob.auth, p.options, ['evented']);
    await t.http.put(p.option(o!.id)).set('Authorization', bob.auth).send({ optionvalue: 'renamed' }).expect(200);
    await t.http.post(p.move(o!.id)).set('Authorization', bob.auth).send({ position: 'First' }).expect(200);
    await t.http.put(p.sort).set('Authorization', bob.auth).send({ locale: 'en-US' }).expect(200);
    await t.http.put(p.default).set('Authorization', bob.auth).send({ optionId: o!.id }).expect(200);
    await t.http.delete(p.option(o!.id)).set('Authorization', bob.auth).expect(200);
    // The field's entries after its grant (an administrator's change, logged too).
    const seen = (await t.services.db.knex('event_log').where('field_id', f.id).andWhereNot('kind', 'like', 'grant.%').orderBy('id')) as {
      kind: string;
      actor: string;
      context_id: number;
      before: unknown;
      after: unknown;
    }[];
    // The event log names an update by what changed (here a rename); the delete carries the default it emptied.
    expect(seen.map((e) => e.kind)).toEqual(['option.created', 'option.renamed', 'option.moved', 'option.sorted', 'default.set', 'option.deleted']);
    expect(seen.every((e) => e.actor === bob.name && e.context_id === f.defaultContextId)).toBe(true);
    expect(seen[1]).toMatchObject({ before: { optionvalue: 'evented' }, after: { optionvalue: 'renamed' } });
    expect(seen[5]).toMatchObject({ before: { id: o!.id, defaultOptionIds: [o!.id] }, after: { defaultOptionIds: [] } });
  });
});
