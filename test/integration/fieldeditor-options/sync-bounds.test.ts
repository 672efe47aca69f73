import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener } from '../../../src/app.ts';
import { createHttpServer } from '../../../src/server.ts';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createField, grant, paths } from '../../helpers/tracker-fixtures.ts';

// Issue 44, findings 1 and 2, as the tester ran them: the sync's upload is not read before the right is decided,
// is read as a stream that stops at its bounds (400 naming the option or row, never 500), one sync per user at a
// time, and `If-Match: *` does not apply a sync that was never previewed. Memory and /status during the attack:
// test/process/sync-upload-attack.test.ts (a real server process).
describe('the option sync under attack', () => {
  const t = useTestApp();
  let bob: TestUser;
  let stranger: TestUser;
  let plain: ReturnType<typeof paths>;
  let multi: ReturnType<typeof paths>;
  let url: string;
  let server: http.Server;
  beforeAll(async () => {
    bob = await t.createUser('bob-bounds');
    stranger = await t.createUser('stranger-bounds');
    const single = await createField(t, { type: 'singleselect' });
    await grant(t, single.id, { user: bob.name });
    plain = paths(single.id, 'default');
    const deep = await createField(t, { type: 'multilevel' });
    await grant(t, deep.id, { user: bob.name });
    multi = paths(deep.id, 'default');
    // A listening server of the same app, for a request whose body the test sends slowly.
    server = createHttpServer(createRequestListener(t.services, t.app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const sync = (p: { options: string }, q: string, body: string | Buffer, type: 'json' | 'csv', auth = bob.auth) =>
    t.http.post(`${p.options}/sync${q}`).set('Authorization', auth).set('Content-Type', type === 'json' ? 'application/json' : 'text/csv').send(body);
  const objects = (n: number) => `[${'{},'.repeat(n - 1)}{}]`;

  /** Sends the head and `first` of a body that never ends, and answers what the server said meanwhile. */
  const answerBeforeTheEnd = (p: { options: string }, auth: string, first: string) =>
    new Promise<{ status: number; body: { subCode?: number } }>((resolve, reject) => {
      const req = http.request(`${url}${p.options}/sync`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json', 'Content-Length': '33000000' } });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode!, body: JSON.parse(text) as { subCode?: number } });
        });
      });
      req.on('error', reject);
      req.write(first);
    });

  it('answers 403 to a caller without a grant before reading the 33 MB of 11 million objects', async () => {
    // The head and the first megabyte of `[{},{},…]`: the refusal comes without the rest (before, the route read
    // and parsed the whole 33 MB first, 7–46 s with the event loop blocked).
    const refused = await answerBeforeTheEnd(plain, stranger.auth, `[${'{},'.repeat(350_000)}`);
    expect(refused).toMatchObject({ status: 403, body: { subCode: 403001 } });
    // The whole file, sent to the end, answers the same.
    const res = await sync(plain, '', objects(11_000_000), 'json', stranger.auth).catch((err: { response?: { status: number; body: { subCode: number } } }) => err.response!);
    expect(res.status).toBe(403);
  });

  it('stops reading JSON at the 100,001st option, and at the field\'s levels', async () => {
    const many = await sync(plain, '', objects(11_000_000), 'json').expect(400);
    expect(many.body.errors).toEqual([{ name: 'options[100000]', message: expect.stringContaining('at most 100000 options') }]);
    const nested = (levels: number) => `[${'{"optionvalue":"a","children":['.repeat(levels - 1)}{"optionvalue":"a"}${']}'.repeat(levels - 1)}]`;
    const deep = await sync(multi, '', nested(100_000), 'json').expect(400);
    expect(deep.body.errors[0].message).toMatch(/at most 1000 levels/);
    expect(deep.body.errors[0].name).toMatch(/^options\[0\](\.children\[0\])+$/);
    const two = await sync(plain, '', nested(2), 'json').expect(400);
    expect(two.body.errors).toEqual([{ name: 'options[0].children[0]', message: expect.stringContaining('at most 1 level;') }]);
    const long = await sync(plain, '', `[{"optionvalue":"${'x'.repeat(100_000)}"}]`, 'json').expect(400);
    expect(long.body.errors[0]).toMatchObject({ name: 'options[0]', message: expect.stringMatching(/longer than 65536/) });
  });

  it('refuses a 32 MB CSV of blank rows at the option limit, naming the row', async () => {
    const blank = `path\r\n${'\r\n'.repeat(16_000_000)}`;
    const res = await sync(plain, '', blank, 'csv').expect(400);
    expect(res.body.errors).toEqual([{ name: 'row 100002', message: expect.stringContaining('at most 100000 options') }]);
    const commas = `path\r\n${',\r\n'.repeat(10_000_000)}`;
    expect((await sync(plain, '', commas, 'csv').expect(400)).body.errors[0].name).toBe('row 100002');
  });

  for (const levels of [100_000, 20_000, 2_000]) {
    it(`answers 400 naming the row to a CSV row of ${levels} levels on a plain select, and on a multi-level one`, async () => {
      const row = `path\r\nok\r\n${Array.from({ length: levels }, () => 'a').join('/')}\r\n`;
      const started = Date.now();
      const res = await sync(plain, '', row, 'csv').expect(400);
      expect(res.body.errors).toEqual([{ name: 'row 3', message: expect.stringContaining('at most 1 level') }]);
      const deep = await sync(multi, '', row, 'csv').expect(400);
      expect(deep.body.errors).toEqual([{ name: expect.stringMatching(/^row 3/), message: expect.stringMatching(/1000 levels?/) }]);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  }

  it('exports and syncs back a 1,000-level chain of a multi-level select; a 1,001st level is refused', async () => {
    const deep = await createField(t, { type: 'multilevel' });
    await grant(t, deep.id, { user: bob.name });
    const p = paths(deep.id, 'default');
    const chain = (levels: number) => `[${'{"optionvalue":"L","children":['.repeat(levels - 1)}{"optionvalue":"L"}${']}'.repeat(levels - 1)}]`;
    const preview = await sync(p, '', chain(1_000), 'json').expect(200);
    expect(preview.body.create).toHaveLength(1_000);
    await sync(p, '?dryRun=false', chain(1_000), 'json').set('If-Match', preview.body.etag).expect(200);
    for (const format of ['json', 'csv'] as const) {
      const res = await t.http.get(`${p.options}/export?format=${format}&bom=false`).set('Authorization', bob.auth).expect(200);
      const file = format === 'json' ? JSON.stringify(res.body) : res.text;
      const back = await sync(p, '?allowDelete=true', file, format).expect(200);
      expect(back.body).toMatchObject({ create: [], rename: [], move: [], delete: [], unlisted: [] });
    }
    const over = await sync(p, '', chain(1_001), 'json').expect(400);
    expect(over.body.errors[0].message).toMatch(/at most 1000 levels; this one would be on level 1001/);
  }, 120_000);

  it('answers 428 to If-Match: * on an apply, and writes nothing', async () => {
    const res = await sync(plain, '?dryRun=false', 'path\r\nStar\r\n', 'csv').set('If-Match', '*').expect(428);
    expect(res.body.subCode).toBe(428000);
    await sync(plain, '?dryRun=false', 'path\r\nStar\r\n', 'csv').expect(428);
    const list = await t.http.get(plain.options).set('Authorization', bob.auth).expect(200);
    expect(list.body.map((o: { optionvalue: string }) => o.optionvalue)).not.toContain('Star');
  });

  it('runs one sync per user at a time: a second while the first is read answers 409', async () => {
    const first = http.request(`${url}${plain.options}/sync`, { method: 'POST', headers: { Authorization: bob.auth, 'Content-Type': 'text/csv' } });
    const answered = new Promise<number>((resolve, reject) => {
      first.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      first.on('error', reject);
    });
    first.write('path\r\nFirst\r\n');
    // The first is admitted and reading once its head has arrived; give the server that moment.
    await new Promise((r) => setTimeout(r, 300));
    const second = await sync(plain, '', 'path\r\nSecond\r\n', 'csv').expect(409);
    expect(second.body).toMatchObject({ subCode: 409001, message: expect.stringContaining('still running') });
    // Another user is not held up.
    expect((await sync(plain, '', 'path\r\nOther\r\n', 'csv', stranger.auth)).status).toBe(403);
    first.end();
    expect(await answered).toBe(200);
    await sync(plain, '', 'path\r\nThird\r\n', 'csv').expect(200);
  });
});
