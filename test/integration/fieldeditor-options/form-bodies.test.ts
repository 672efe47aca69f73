// Issue 43, point 1: a command-line tool written for the original field editor adds options with
// `disabled=False&optionvalue=<name>` and moves them with `position=First`, as application/x-www-form-urlencoded,
// over Basic and without `X-Atlassian-Token`. Such a script is not a browser session: on the option writes that
// declare `formBody` the form is read into the JSON body's members and answered as JSON, under every base path
// and version. With a cookie (a browser) or the headers browsers add to a cross-site post, the XSRF rule stays.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniq, useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { dataFingerprint } from '../../helpers/db-snapshot.ts';
import { createField, grant, listValues, paths } from '../../helpers/tracker-fixtures.ts';
import { FIELDEDITOR_BASES } from '../../../src/fieldeditor/shared/fieldeditor.paths.ts';

const t = useTestApp();
let bob: TestUser;
let cookie: string;

// Both names (the product's and the original's), each in API versions 1 and 1.2.
const BASES = FIELDEDITOR_BASES.map((b) => b.path);

beforeAll(async () => {
  bob = await t.createUser(uniq('form-bob'));
  const signedIn = await t.http.post('/rest/auth/1/session').send({ username: bob.name, password: bob.password }).expect(200);
  cookie = (signedIn.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
});

/** A field of its own that bob may edit, and its default context's option paths under `base`. */
async function fieldFor(base: string) {
  const field = await createField(t);
  await grant(t, field.id, { user: bob.name });
  return { id: field.id, ...paths(field.id, 'default', base) };
}

/** The tool's two requests, exactly as it sends them (form body, Basic, no token header). */
const toolCreate = (path: string, name: string, auth = bob.auth) =>
  t.http.post(path).set('Authorization', auth).set('Content-Type', 'application/x-www-form-urlencoded').send(`disabled=False&optionvalue=${encodeURIComponent(name)}`);
const toolMove = (path: string, auth = bob.auth) => t.http.post(path).set('Authorization', auth).set('Content-Type', 'application/x-www-form-urlencoded').send('position=First');

async function writesNothing(fn: () => Promise<void>): Promise<void> {
  const before = await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures', 'web_sessions'] });
  await fn();
  expect(await dataFingerprint(t.services.db.knex, { ignore: ['auth_failures', 'web_sessions'] })).toEqual(before);
}

describe.each(BASES)('the outside tool under %s', (base) => {
  it('creates options and moves them first with form bodies over Basic; the answers are the JSON answers', async () => {
    const f = await fieldFor(base);
    const created = [];
    for (const name of ['beta', 'alpha', 'True', '007']) {
      const res = await toolCreate(f.options, name);
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ id: expect.any(Number), optionvalue: name, sequence: created.length, disabled: false });
      created.push(res.body as { id: number });
    }
    // The tool sorts by moving each option first in reverse order: 007, True, alpha, beta → beta first, …
    for (const o of [...created].reverse()) {
      const res = await toolMove(f.move(o.id));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: o.id, sequence: 0 });
    }
    expect(await listValues(t, bob.auth, f.options)).toEqual(['beta', 'alpha', 'True', '007']);
  });

  it('reads True/False as booleans and refuses a form member the schema does not take, by name', async () => {
    const f = await fieldFor(base);
    const res = await t.http.post(f.options).set('Authorization', bob.auth).type('form').send('optionvalue=off&disabled=True&unknown=1');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ optionvalue: 'off', disabled: true });
    const renamed = await t.http.put(f.option(res.body.id)).set('Authorization', bob.auth).type('form').send('disabled=false');
    expect(renamed.body).toMatchObject({ optionvalue: 'off', disabled: false });
    const bad = await t.http.put(f.option(res.body.id)).set('Authorization', bob.auth).type('form').send('disabled=maybe');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('disabled');
    const twice = await t.http.post(f.options).set('Authorization', bob.auth).type('form').send('optionvalue=a&optionvalue=b');
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('more than once');
  });
});

describe('form bodies are for scripts only', () => {
  it('takes them with a Bearer token too', async () => {
    const f = await fieldFor(BASES[0]!);
    const token = await t.tokenFor(bob.name);
    const res = await toolCreate(f.options, 'by-token', token);
    expect(res.status, res.text).toBe(200);
    expect(await listValues(t, bob.auth, f.options)).toEqual(['by-token']);
  });

  it('keeps the XSRF rule with a session cookie: 403, nothing written, on every base path', async () => {
    const fields = await Promise.all(BASES.map(fieldFor));
    const [first] = await Promise.all([toolCreate(fields[0]!.options, 'seed')]);
    await writesNothing(async () => {
      for (const f of fields) {
        const create = await t.http.post(f.options).set('Cookie', cookie).type('form').send('disabled=False&optionvalue=x');
        expect(create.status, create.text).toBe(403);
        expect(create.body).toMatchObject({ subCode: 403004, message: expect.stringMatching(/^XSRF check failed/) });
      }
      const move = await t.http.post(fields[0]!.move(first!.body.id)).set('Cookie', cookie).type('form').send('position=First');
      expect(move.status).toBe(403);
      // Basic and a cookie: a browser may hold both.
      const both = await toolCreate(fields[0]!.options, 'y').set('Cookie', cookie);
      expect(both.status).toBe(403);
    });
  });

  it('keeps it for what a browser adds to a cross-site post, and for multipart and text/plain', async () => {
    const f = await fieldFor(BASES[1]!);
    await writesNothing(async () => {
      expect((await toolCreate(f.options, 'o').set('Origin', 'https://elsewhere.example')).status).toBe(403);
      expect((await toolCreate(f.options, 's').set('Sec-Fetch-Site', 'cross-site')).status).toBe(403);
      expect((await t.http.post(f.options).set('Authorization', bob.auth).field('optionvalue', 'm')).status).toBe(403);
      const text = await t.http.post(f.options).set('Authorization', bob.auth).set('Content-Type', 'text/plain').send('optionvalue=p');
      expect(text.status).toBe(403);
    });
  });

  it('keeps it on writes that take no form (the settings, the grants) and for anonymous callers', async () => {
    const f = await fieldFor(BASES[0]!);
    await writesNothing(async () => {
      const settings = await t.http.put(`${BASES[0]}/admin/settings`).set('Authorization', t.adminAuth).type('form').send('onlyAdminsMayDeleteOptions=true');
      expect(settings.status).toBe(403);
      const anonymous = await t.http.post(f.options).type('form').send('optionvalue=anon');
      expect(anonymous.status).toBe(403);
    });
  });
});

describe('API 1.1', () => {
  it.each(['/rest/trackercustomfieldeditorplugin/1.1', '/rest/jiracustomfieldeditorplugin/1.1'])('creates and moves with form bodies under %s', async (base) => {
    const f = await fieldFor(BASES[0]!);
    const list = `${base}/user/customfieldoption/${f.id}`;
    const a = await toolCreate(list, 'one');
    expect(a.status, a.text).toBe(200);
    const b = await toolCreate(list, 'two');
    expect(b.status, b.text).toBe(200);
    const moved = await toolMove(`${list}/${b.body.id}/move`);
    expect(moved.status, moved.text).toBe(200);
    expect(await listValues(t, bob.auth, f.options)).toEqual(['two', 'one']);
  });
});
