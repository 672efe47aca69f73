// Issue 30, point 6: the work one request may ask for is bounded (docs/configuration.md, "Limits"): the largest
// body, the longest query string and the deepest JSON. An over-limit request answers 413 or 400 in the API's
// own format, before any route runs, and writes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH, MAX_QUERY_LENGTH } from '../../../src/platform/http/input-boundary.ts';
import { DEFAULT_BODY_LIMIT } from '../../../src/platform/http/mount-api.ts';
import { uniq, useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, listValues, paths } from '../../helpers/tracker-fixtures.ts';

/** `{a: {a: … {a: 1}}}` nested `levels` deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('bounded work per request', () => {
  const t = useTestApp();
  let editor: TestUser;
  let list: string;

  beforeAll(async () => {
    editor = await t.createUser(uniq('bounded'));
    const field = await createField(t);
    await grant(t, field.id, { user: editor.name });
    list = paths(field.id, 'default').options;
    await addOptions(t, editor.auth, list, ['Only']);
  });

  it('refuses a body over the limit with 413 in the field-editor and host shapes, writing nothing', async () => {
    const big = { optionvalue: 'Big', padding: 'x'.repeat(DEFAULT_BODY_LIMIT) };
    const fe = await t.http.post(list).set('Authorization', editor.auth).send(big);
    expect(fe.status).toBe(413);
    expect(fe.body).toEqual({ statusCode: 413, subCode: 413000, message: 'The request body is too large.' });
    expect(await listValues(t, editor.auth, list)).toEqual(['Only']);

    const name = uniq('too-big');
    const host = await t.http.post('/rest/api/2/user').set('Authorization', t.adminAuth).send({ name, password: 'pw', displayName: 'x'.repeat(DEFAULT_BODY_LIMIT) });
    expect(host.status).toBe(413);
    expect(host.body).toEqual({ errorMessages: ['The request body is too large.'], errors: {} });
    expect(await t.services.db.knex('users').where({ name }).first()).toBeUndefined();
  });

  it(`refuses a query string over ${MAX_QUERY_LENGTH} characters with 400, writing nothing; one at the limit is read`, async () => {
    const long = `x=${'a'.repeat(MAX_QUERY_LENGTH - 1)}`;
    const atLimit = `x=${'a'.repeat(MAX_QUERY_LENGTH - 2)}`;
    const write = await t.http.post(`${list}?${long}`).set('Authorization', editor.auth).send({ optionvalue: 'Queried' });
    expect(write.status).toBe(400);
    expect(write.body).toMatchObject({ statusCode: 400, subCode: 400000, errors: [{ name: 'query', message: `is longer than ${MAX_QUERY_LENGTH} characters.` }] });
    expect(await listValues(t, editor.auth, list)).toEqual(['Only']);
    const host = await t.http.get(`/rest/api/2/myself?${long}`).set('Authorization', editor.auth);
    expect(host.status).toBe(400);
    expect(host.body).toEqual({ errorMessages: [], errors: { query: `is longer than ${MAX_QUERY_LENGTH} characters.` } });
    await t.http.get(`/rest/api/2/myself?${atLimit}`).set('Authorization', editor.auth).expect(200);
    // The code-block API answers bad URL parameters with its documented 500.
    const e1 = await t.http.get(`/rest/advancedcodeblocks/1/download_code/plain_text?${long}`).set('Authorization', editor.auth);
    expect(e1.status).toBe(500);
    expect(e1.text).toContain('500_ERROR_INVALID_URL_PARAMETER_EXCEPTION');
  });

  it(`refuses JSON nested more than ${MAX_DEPTH} levels with 400, writing nothing`, async () => {
    const deep = await t.http.post(list).set('Authorization', editor.auth).send({ optionvalue: 'Deep', extra: nested(MAX_DEPTH + 1) });
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].message).toBe(`is nested more than ${MAX_DEPTH} levels deep.`);
    expect(await listValues(t, editor.auth, list)).toEqual(['Only']);
  });
});
