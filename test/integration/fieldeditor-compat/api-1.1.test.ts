// Issue 26, point 1: API 1.1 under /rest/trackercustomfieldeditorplugin/1.1 and /rest/jiracustomfieldeditorplugin/1.1:
// the ten operations of the 1.1 description (V1-V10) on the field's default context, `customfield_<n>` ids (digits
// too), nested childOptions, DeleteOk with a string id, 1.1's 500 for missing rights and unknown entities, and 412
// for a route only the later generations have. A client written for 1.1 walks it as it walked the original.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { dataFingerprint } from '../../helpers/db-snapshot.ts';
import { addOptions, createContext, createField, FE, grant, paths, setOnlyAdminsMayDelete, type TestField } from '../../helpers/tracker-fixtures.ts';

const t = useTestApp();
const BASES = ['/rest/trackercustomfieldeditorplugin/1.1', '/rest/jiracustomfieldeditorplugin/1.1'] as const;
const NO_GRANT = { statusCode: 500, subCode: 403001, message: 'FieldPermission Denied - you do not have sufficient rights for this operation.' };

let bob: TestUser;
let carol: TestUser;
let select: TestField;
let cascading: TestField;
let multilevel: TestField;

beforeAll(async () => {
  bob = await t.createUser('v11-bob');
  carol = await t.createUser('v11-carol');
  select = await createField(t, { type: 'singleselect' });
  cascading = await createField(t, { type: 'cascadingselect' });
  multilevel = await createField(t, { type: 'multilevel' });
  for (const f of [select, cascading, multilevel]) await grant(t, f.id, { user: bob.name });
});

/** The 1.1 paths of one field under one base (`id` as sent: a number or `customfield_<n>`). */
const v11 = (base: string, id: number | string) => ({
  list: `${base}/user/customfieldoptions/${id}`,
  create: `${base}/user/customfieldoption/${id}`,
  option: (optionId: number | string) => `${base}/user/customfieldoption/${id}/${optionId}`,
  move: (optionId: number) => `${base}/user/customfieldoption/${id}/${optionId}/move`,
  children: (parentId: number) => `${base}/user/customfieldchildoptions/${id}/${parentId}`,
  createChild: (parentId: number) => `${base}/user/customfieldchildoption/${id}/${parentId}`,
  child: (parentId: number, childId: number | string) => `${base}/user/customfieldchildoption/${id}/${parentId}/${childId}`,
  moveChild: (parentId: number, childId: number) => `${base}/user/customfieldchildoption/${id}/${parentId}/${childId}/move`,
});

async function writesNothing(fn: () => Promise<void>): Promise<void> {
  const before = await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures'] });
  await fn();
  expect(await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures'] })).toEqual(before);
}

describe.each(BASES)('API 1.1 under %s', (base) => {
  it('V1 lists the options of the default context: optionvalue, id, sequence, disabled, no childOptions on a plain select', async () => {
    const field = await createField(t, { type: 'singleselect' });
    await grant(t, field.id, { user: bob.name });
    const made = await addOptions(t, bob.auth, paths(field.id, 'default').options, ['A', 'B']);
    // An option of another context is not in the 1.1 list (1.1 always works on the default context).
    const other = await createContext(t, field.id);
    await addOptions(t, bob.auth, paths(field.id, other.id).options, ['elsewhere']);
    for (const id of [`customfield_${field.id}`, String(field.id)]) {
      const res = await t.http.get(v11(base, id).list).set('Authorization', bob.auth).expect(200);
      expect(res.body).toEqual([
        { optionvalue: 'A', id: made[0]!.id, sequence: 0, disabled: false },
        { optionvalue: 'B', id: made[1]!.id, sequence: 1, disabled: false },
      ]);
      expect(Object.keys(res.body[0])).toEqual(['optionvalue', 'id', 'sequence', 'disabled']);
    }
  });

  it('V1 nests the children of a cascading field in childOptions (leaves: []), the multi-level subtree at any depth', async () => {
    const p = paths(cascading.id, 'default');
    const [europe, america] = await addOptions(t, bob.auth, p.options, [`Europe ${base.length}`, `America ${base.length}`]);
    const [germany] = await addOptions(t, bob.auth, p.children(europe!.id), ['Germany']);
    const list = await t.http.get(v11(base, `customfield_${cascading.id}`).list).set('Authorization', bob.auth).expect(200);
    const mine = (list.body as { id: number }[]).filter((o) => o.id === europe!.id || o.id === america!.id);
    expect(mine).toEqual([
      { ...europe, childOptions: [{ ...germany, childOptions: [] }] },
      { ...america, childOptions: [] },
    ]);

    const m = paths(multilevel.id, 'default');
    const [root] = await addOptions(t, bob.auth, m.options, [`Root ${base.length}`]);
    const [mid] = await addOptions(t, bob.auth, m.children(root!.id), ['Mid']);
    const [leaf] = await addOptions(t, bob.auth, m.children(mid!.id), ['Leaf']);
    const tree = await t.http.get(v11(base, multilevel.id).list).set('Authorization', bob.auth).expect(200);
    expect(tree.body.find((o: { id: number }) => o.id === root!.id)).toEqual({ ...root, childOptions: [{ ...mid, childOptions: [{ ...leaf, childOptions: [] }] }] });
    // V6: the children of one option, with their own subtree.
    const children = await t.http.get(v11(base, multilevel.id).children(root!.id)).set('Authorization', bob.auth).expect(200);
    expect(children.body).toEqual([{ ...mid, childOptions: [{ ...leaf, childOptions: [] }] }]);
  });

  it('V2 creates at the end (id, sequence and childOptions ignored, "true" taken for disabled); a duplicate is a 400 naming optionvalue', async () => {
    const field = await createField(t);
    await grant(t, field.id, { user: bob.name });
    const p = v11(base, `customfield_${field.id}`);
    await t.http.post(p.create).set('Authorization', bob.auth).send({ optionvalue: 'first' }).expect(200);
    const res = await t.http.post(p.create).set('Authorization', bob.auth).send({ optionvalue: ' second ', disabled: 'true', id: 5, sequence: 0, childOptions: [{ optionvalue: 'x' }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ optionvalue: 'second', id: expect.any(Number), sequence: 1, disabled: true });
    const dup = await t.http.post(p.create).set('Authorization', bob.auth).send({ optionvalue: 'FIRST' });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ statusCode: 400, subCode: 400000, errors: [expect.objectContaining({ name: 'optionvalue' }), expect.anything()] });
    const missing = await t.http.post(p.create).set('Authorization', bob.auth).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ name: 'optionvalue' })]);
  });

  it('V3 renames, disables and enables (partial bodies; sequence ignored); V4 deletes with DeleteOk {id: "<string>"}', async () => {
    const field = await createField(t);
    await grant(t, field.id, { user: bob.name });
    const [a, b] = await addOptions(t, bob.auth, paths(field.id, 'default').options, ['a', 'b']);
    const p = v11(base, field.id);
    const renamed = await t.http.put(p.option(a!.id)).set('Authorization', bob.auth).send({ optionvalue: 'alpha', sequence: 7 }).expect(200);
    expect(renamed.body).toEqual({ optionvalue: 'alpha', id: a!.id, sequence: 0, disabled: false });
    expect((await t.http.put(p.option(a!.id)).set('Authorization', bob.auth).send({ disabled: 'true' }).expect(200)).body.disabled).toBe(true);
    expect((await t.http.put(p.option(a!.id)).set('Authorization', bob.auth).send({ disabled: false }).expect(200)).body).toMatchObject({ optionvalue: 'alpha', disabled: false });
    const deleted = await t.http.delete(p.option(b!.id)).set('Authorization', bob.auth).expect(200);
    expect(deleted.body).toEqual({ id: String(b!.id) });
    // Deleting it again: the option does not exist, which 1.1 answers with 500 (the subCode says which).
    const again = await t.http.delete(p.option(b!.id)).set('Authorization', bob.auth);
    expect(again.status).toBe(500);
    expect(again.body).toEqual({ statusCode: 500, subCode: 404000, message: `The option ${b!.id} does not exist in this context.` });
  });

  it('V5 moves an option First or after a sibling (an id, or a URL ending in one); position wins; the body is required', async () => {
    const field = await createField(t);
    await grant(t, field.id, { user: bob.name });
    const [a, b, c] = await addOptions(t, bob.auth, paths(field.id, 'default').options, ['a', 'b', 'c']);
    const p = v11(base, `customfield_${field.id}`);
    const values = async () => (await t.http.get(p.list).set('Authorization', bob.auth).expect(200)).body.map((o: { optionvalue: string }) => o.optionvalue);
    expect((await t.http.post(p.move(c!.id)).set('Authorization', bob.auth).send({ position: 'First', after: String(b!.id) }).expect(200)).body).toMatchObject({ id: c!.id, sequence: 0 });
    expect(await values()).toEqual(['c', 'a', 'b']);
    await t.http.post(p.move(c!.id)).set('Authorization', bob.auth).send({ after: `${base}/user/customfieldoption/${field.id}/${a!.id}` }).expect(200);
    expect(await values()).toEqual(['a', 'c', 'b']);
    await t.http.post(p.move(a!.id)).set('Authorization', bob.auth).send({ after: b!.id }).expect(200);
    expect(await values()).toEqual(['c', 'b', 'a']);
    const none = await t.http.post(p.move(a!.id)).set('Authorization', bob.auth).send({});
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([expect.objectContaining({ name: 'after' })]);
  });

  it('V6-V10: child options of a cascading field (list, create, rename, move, delete)', async () => {
    const field = await createField(t, { type: 'cascadingselect' });
    await grant(t, field.id, { user: bob.name });
    const [parent] = await addOptions(t, bob.auth, paths(field.id, 'default').options, ['parent']);
    const p = v11(base, `customfield_${field.id}`);
    const x = (await t.http.post(p.createChild(parent!.id)).set('Authorization', bob.auth).send({ optionvalue: 'x' }).expect(200)).body;
    const y = (await t.http.post(p.createChild(parent!.id)).set('Authorization', bob.auth).send({ optionvalue: 'y', disabled: true }).expect(200)).body;
    expect(y).toEqual({ optionvalue: 'y', id: expect.any(Number), sequence: 1, disabled: true });
    expect((await t.http.put(p.child(parent!.id, x.id)).set('Authorization', bob.auth).send({ optionvalue: 'ex' }).expect(200)).body).toEqual({ ...x, optionvalue: 'ex' });
    expect((await t.http.post(p.moveChild(parent!.id, y.id)).set('Authorization', bob.auth).send({ position: 'First' }).expect(200)).body).toMatchObject({ id: y.id, sequence: 0 });
    const listed = await t.http.get(p.children(parent!.id)).set('Authorization', bob.auth).expect(200);
    expect(listed.body).toEqual([
      { optionvalue: 'y', id: y.id, sequence: 0, disabled: true, childOptions: [] },
      { optionvalue: 'ex', id: x.id, sequence: 1, disabled: false, childOptions: [] },
    ]);
    expect((await t.http.delete(p.child(parent!.id, x.id)).set('Authorization', bob.auth).expect(200)).body).toEqual({ id: String(x.id) });
    // A child under the wrong parent, and child routes on a field without children: 400 as under 1.2.
    const wrong = await t.http.delete(p.child(y.id, parent!.id)).set('Authorization', bob.auth);
    expect(wrong.status).toBe(400);
    const plain = await t.http.get(v11(base, select.id).children(parent!.id)).set('Authorization', bob.auth);
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toEqual([expect.objectContaining({ name: 'customFieldId' })]);
  });

  it('answers 500 (subCode 403001) to a caller without a grant, and 500 (403002) for an unknown field; nothing is written', async () => {
    const p = v11(base, `customfield_${select.id}`);
    const [opt] = await addOptions(t, bob.auth, paths(select.id, 'default').options, [`guarded ${base.length}`]);
    await writesNothing(async () => {
      for (const res of [
        await t.http.get(p.list).set('Authorization', carol.auth),
        await t.http.post(p.create).set('Authorization', carol.auth).send({ optionvalue: 'nope' }),
        await t.http.put(p.option(opt!.id)).set('Authorization', carol.auth).send({ optionvalue: 'nope' }),
        await t.http.delete(p.option(opt!.id)).set('Authorization', carol.auth),
        await t.http.post(p.move(opt!.id)).set('Authorization', carol.auth).send({ position: 'First' }),
        await t.http.get(p.children(opt!.id)).set('Authorization', carol.auth),
      ]) {
        expect(res.status).toBe(500);
        expect(res.body).toEqual(NO_GRANT);
      }
      const unknown = await t.http.get(v11(base, 'customfield_99999').list).set('Authorization', bob.auth);
      expect(unknown.status).toBe(500);
      expect(unknown.body).toEqual({ statusCode: 500, subCode: 403002, message: expect.stringContaining('does not exist') });
    });
  });

  it('a grant on another context only is no grant on the default context (500, 403001)', async () => {
    const field = await createField(t);
    const ctx = await createContext(t, field.id);
    await grant(t, field.id, { user: carol.name, contextId: ctx.id });
    const res = await t.http.post(v11(base, field.id).create).set('Authorization', carol.auth).send({ optionvalue: 'x' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(NO_GRANT);
  });

  it('answers 401 without (or with a wrong) credential, and 400 naming a malformed id', async () => {
    const p = v11(base, select.id);
    for (const res of [await t.http.get(p.list), await t.http.post(p.create).send({ optionvalue: 'x' }), await t.http.get(p.list).set('Authorization', 'Basic bm9ib2R5Ondyb25n')]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, subCode: 401000, message: expect.any(String) });
    }
    const badField = await t.http.get(v11(base, 'cf_1').list).set('Authorization', bob.auth);
    expect(badField.status).toBe(400);
    expect(badField.body.errors).toEqual([expect.objectContaining({ name: 'customfieldid' })]);
    const badOption = await t.http.put(p.option('first')).set('Authorization', bob.auth).send({ optionvalue: 'x' });
    expect(badOption.status).toBe(400);
    expect(badOption.body.errors).toEqual([expect.objectContaining({ name: 'optionid' })]);
  });

  it('answers 500 (403003) to a delete while only administrators may delete', async () => {
    const [opt] = await addOptions(t, bob.auth, paths(select.id, 'default').options, [`kept ${base.length}`]);
    await setOnlyAdminsMayDelete(t, true);
    try {
      const res = await t.http.delete(v11(base, select.id).option(opt!.id)).set('Authorization', bob.auth);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ statusCode: 500, subCode: 403003 });
    } finally {
      await setOnlyAdminsMayDelete(t, false);
    }
  });

  it('answers 412 for a route only later versions have (any method; 401 first without a user), 404 for an unknown one', async () => {
    const later = {
      U1: t.http.get(`${base}/user/customfields`),
      U4: t.http.get(`${base}/user/customfields/${select.id}/contexts/default/options`),
      U14: t.http.put(`${base}/user/customfields/${select.id}/contexts/default/options/sort`).send({ locale: 'en-US' }),
      A2: t.http.get(`${base}/admin/customfields/${select.id}`),
      'A1, another method': t.http.delete(`${base}/admin/customfields`),
      health: t.http.get(`${base}/health/status`),
      M4: t.http.get(`${base}/api_specification/openapi_json`),
    };
    for (const [name, req] of Object.entries(later)) {
      const res = await req.set('Authorization', bob.auth);
      expect(res.status, name).toBe(412);
      expect(res.body).toEqual({ statusCode: 412, subCode: 412000, message: expect.stringContaining('not available under the requested URL') });
    }
    expect((await t.http.get(`${base}/user/customfields`)).status).toBe(401);
    const unknown = await t.http.get(`${base}/user/nothing/here`).set('Authorization', bob.auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, subCode: 404000, message: expect.any(String) });
  });

  it('refuses a browser-sendable body as every JSON endpoint does: 403 XSRF check failed, 415 with X-Atlassian-Token', async () => {
    // A form-encoded body from a script (Basic, no cookie) is read (form-bodies.test.ts); multipart is not.
    const p = v11(base, select.id);
    await writesNothing(async () => {
      const form = await t.http.post(p.create).set('Authorization', bob.auth).field('optionvalue', 'alpha');
      expect(form.status).toBe(403);
      expect(form.body).toEqual({ statusCode: 403, subCode: 403004, message: expect.stringMatching(/^XSRF check failed/) });
      const withToken = await t.http.post(p.create).set('Authorization', bob.auth).set('X-Atlassian-Token', 'no-check').set('Content-Type', 'text/plain').send('optionvalue=alpha');
      expect(withToken.status).toBe(415);
    });
  });
});

describe('a client written for API 1.1', () => {
  it('walks list, create, rename, move First, delete, list again, and sees the same list as the 1.2 endpoints', async () => {
    const field = await createField(t, { type: 'singleselect' });
    await grant(t, field.id, { user: bob.name });
    await addOptions(t, bob.auth, paths(field.id, 'default').options, ['Release 0']);
    const api = v11('/rest/jiracustomfieldeditorplugin/1.1', `customfield_${field.id}`);
    const auth = bob.auth;
    const find = async (value: string) =>
      ((await t.http.get(api.list).set('Authorization', auth).expect(200)).body as { optionvalue: string; id: number }[]).find((o) => o.optionvalue === value);

    expect(await find('Release 1')).toBeUndefined();
    const created = await t.http.post(api.create).set('Authorization', auth).send({ optionvalue: 'Release 1' }).expect(200);
    expect(created.body).toMatchObject({ optionvalue: 'Release 1', sequence: 1 });
    await t.http.put(api.option((await find('Release 1'))!.id)).set('Authorization', auth).send({ optionvalue: 'Release 1.0' }).expect(200);
    await t.http.post(api.move((await find('Release 1.0'))!.id)).set('Authorization', auth).send({ position: 'First' }).expect(200);
    const listed = await t.http.get(api.list).set('Authorization', auth).expect(200);
    expect(listed.body.map((o: { optionvalue: string }) => o.optionvalue)).toEqual(['Release 1.0', 'Release 0']);
    // The 1.2 endpoints (and their cached list) show the same list at once.
    const current = await t.http.get(paths(field.id, 'default', FE).options).set('Authorization', auth).expect(200);
    expect(current.body).toEqual(listed.body);

    const gone = await t.http.delete(api.option(created.body.id)).set('Authorization', auth).expect(200);
    expect(gone.body).toEqual({ id: String(created.body.id) });
    expect(await find('Release 1.0')).toBeUndefined();
    const after = await t.http.get(api.list).set('Authorization', auth).expect(200);
    expect(after.body).toEqual([{ optionvalue: 'Release 0', id: expect.any(Number), sequence: 0, disabled: false }]);
  });
});
