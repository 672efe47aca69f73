// ETags, 304s and compression of E1, E2 and E3: a 304 answers only who may view, like a 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { randomUUID } from 'node:crypto';
import { codeboxMacro, createContent, createSpace, keyOf, multiBox } from '../../helpers/wiki-fixtures.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const E2 = '/rest/advancedcodeblocks/1/download_list/xml';
const E3 = '/rest/advancedcodeblocks/1/download_list/json';
const STRONG = /^"[A-Za-z0-9_-]{27}(-gz|-br)?"$/; // supertest asks for gzip by default

describe('conditional GET and compression of downloads', () => {
  let t: TestApp;
  let reader: TestUser;
  let outsider: TestUser;
  let page: number;
  let macro: string;
  let big: string;
  let small: string;

  beforeAll(async () => {
    t = await createTestApp();
    reader = await t.createUser('etag-reader', { groups: ['etag-team'] });
    outsider = await t.createUser('etag-outsider');
    await createSpace(t, 'ETAG', { groups: ['etag-team'] });
    big = `${'echo ${host} and a long line of shell that repeats\n'.repeat(60)}`;
    macro = randomUUID();
    small = randomUUID();
    const body = multiBox(macro, `[small]\nhost = s1\n[content]\n${big}`) + codeboxMacro('advanced-single-codeblock-macro', 'ls\n', {}, small);
    page = Number((await createContent(t, t.adminAuth, { space: 'ETAG', title: 'Conditional', body })).id);
  });
  afterAll(() => t.close());

  const urls = () => [
    `${E1}?key=${encodeURIComponent(keyOf('small'))}&macroId=${macro}&contentId=${page}`,
    `${E2}?macroId=${macro}&contentId=${page}`,
    `${E3}?macroId=${macro}&contentId=${page}`,
  ];

  it('sends a strong ETag and Cache-Control: private, no-cache; a matching If-None-Match answers 304 without a body', async () => {
    for (const url of urls()) {
      const first = await t.http.get(url).set('Authorization', reader.auth).expect(200);
      const tag = first.headers['etag'] as string;
      expect(tag).toMatch(STRONG);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect(first.headers['vary']).toBe('Accept-Encoding');
      // The same bytes again: the same tag (from the cache, and from a fresh read alike).
      expect((await t.http.get(url).set('Authorization', reader.auth).expect(200)).headers['etag']).toBe(tag);
      const again = await t.http.get(url).set('Authorization', reader.auth).set('If-None-Match', tag).expect(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers['etag']).toBe(tag);
      expect(again.headers['content-length'] ?? '0').toBe('0');
      // A list of tags, weak form included, matches too; another tag does not.
      await t.http.get(url).set('Authorization', reader.auth).set('If-None-Match', `"nope", W/${tag}`).expect(304);
      await t.http.get(url).set('Authorization', reader.auth).set('If-None-Match', '"nope"').expect(200);
      await t.http.get(url).set('Authorization', reader.auth).set('If-None-Match', '*').expect(304);
    }
  });

  it('never answers 304 to a caller who may not view or is not signed in, whatever tag it sends', async () => {
    for (const url of urls()) {
      const tag = (await t.http.get(url).set('Authorization', reader.auth).expect(200)).headers['etag'] as string;
      for (const inm of [tag, '*']) {
        const denied = await t.http.get(url).set('Authorization', outsider.auth).set('If-None-Match', inm);
        expect(denied.status).toBe(403);
        expect(denied.headers['etag']).toBeUndefined();
        expect((await t.http.get(url).set('If-None-Match', inm)).status).toBe(401);
        expect((await t.http.get(url).set('Authorization', 'Basic ZXRhZy1yZWFkZXI6d3Jvbmc=').set('If-None-Match', inm)).status).toBe(401);
      }
    }
  });

  it('If-None-Match: * on an answer that is not 2xx, or on an endpoint without ETags, is ignored', async () => {
    const missing = await t.http.get(`${E3}?macroId=no-such-macro&contentId=${page}`).set('Authorization', reader.auth).set('If-None-Match', '*');
    expect(missing.status).toBe(500);
    const myself = await t.http.get('/rest/api/2/myself').set('Authorization', reader.auth).set('If-None-Match', '*');
    expect(myself.status).toBe(200);
    expect(myself.body.name).toBe('etag-reader');
  });

  it('a restriction set through the API refuses the next conditional request (403, not 304)', async () => {
    await createSpace(t, 'ETAGR', { groups: ['etag-team'] });
    const m = randomUUID();
    const p = (await createContent(t, t.adminAuth, { space: 'ETAGR', title: 'Soon restricted', body: codeboxMacro('advanced-single-codeblock-macro', 'echo hi\n', {}, m) })).id;
    const url = `${E1}?key=cmF3&macroId=${m}&contentId=${p}`;
    const tag = (await t.http.get(url).set('Authorization', reader.auth).expect(200)).headers['etag'] as string;
    await t.http
      .put(`/rest/api/content/${p}/restriction`)
      .set('Authorization', t.adminAuth)
      .send([{ operation: 'read', restrictions: { user: [{ type: 'known', username: 'admin' }], group: [] } }])
      .expect(200);
    expect((await t.http.get(url).set('Authorization', reader.auth).set('If-None-Match', tag)).status).toBe(403);
  });

  it('compresses answers over 1 KB by Accept-Encoding with q-values, and keeps small ones as they are', async () => {
    const url = `${E1}?key=cmF3&macroId=${macro}&contentId=${page}`;
    const plain = await t.http.get(url).set('Authorization', reader.auth).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(big);
    const gz = await t.http.get(url).set('Authorization', reader.auth).set('Accept-Encoding', 'gzip').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(big); // supertest decodes gzip
    expect(gz.headers['etag']).toBe((plain.headers['etag'] as string).replace(/"$/, '-gz"'));
    const cases: [string, string | undefined][] = [
      ['br;q=1, gzip;q=0.5', 'br'],
      ['gzip, br', 'br'],
      ['gzip;q=1, br;q=0.2', 'gzip'],
      ['gzip;q=0, identity', undefined],
      ['*', 'br'],
      ['*;q=0.5, identity;q=1', undefined],
      ['identity;q=0, gzip;q=0.1', 'gzip'],
      ['deflate', undefined],
    ];
    for (const [accept, coding] of cases) {
      const res = await t.http.get(url).set('Authorization', reader.auth).set('Accept-Encoding', accept).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      expect([accept, res.headers['content-encoding']]).toEqual([accept, coding]);
    }
    // A revalidation of the compressed form: its tag matches, and the 304 carries it.
    const etagGz = gz.headers['etag'] as string;
    const r304 = await t.http.get(url).set('Authorization', reader.auth).set('Accept-Encoding', 'gzip').set('If-None-Match', etagGz).expect(304);
    expect(r304.headers['etag']).toBe(etagGz);
    // Small bodies are never compressed.
    const tiny = await t.http.get(`${E1}?key=cmF3&macroId=${small}&contentId=${page}`).set('Authorization', reader.auth).set('Accept-Encoding', 'gzip, br').expect(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.headers['vary']).toBe('Accept-Encoding');
  });
});
