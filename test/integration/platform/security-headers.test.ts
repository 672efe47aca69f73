// Issue 30's noted headers: `Referrer-Policy` on the API explorer (/docs/), and `X-Content-Type-Options: nosniff`
// on plain-text downloads, whether Express or the download fast path answers (their parity, header for header,
// is fast-path.test.ts's), on their 304s and on the plain-text errors of the code-block API.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { codeboxMacro, createContent, createSpace, keyOf } from '../../helpers/wiki-fixtures.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';

describe('security headers', () => {
  const t = useTestApp();
  let reader: TestUser;
  let outsider: TestUser;
  let url: string;

  beforeAll(async () => {
    reader = await t.createUser('hdr-reader', { groups: ['hdr-team'] });
    outsider = await t.createUser('hdr-outsider');
    await createSpace(t, 'HDR', { groups: ['hdr-team'] });
    const macro = randomUUID();
    const page = (await createContent(t, t.adminAuth, { space: 'HDR', title: 'Headers', body: codeboxMacro('advanced-single-codeblock-macro', '<script>alert(1)</script>\n', {}, macro) })).id;
    url = `${E1}?key=${encodeURIComponent(keyOf('raw'))}&macroId=${macro}&contentId=${page}`;
  });

  it('sends Referrer-Policy: no-referrer with the explorer page, its script and its assets', async () => {
    for (const path of ['/docs/', '/docs/explorer.js', '/docs/assets/swagger-ui.css']) {
      const res = await t.http.get(path).expect(200);
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('sends X-Content-Type-Options: nosniff with a text download, from Express and from the fast path, and with its 304', async () => {
    const first = await t.http.get(url).set('Authorization', reader.auth).expect(200);
    expect(first.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    // The second is a cache hit, which the download fast path answers before Express (FAST_PATH is on).
    const again = await t.http.get(url).set('Authorization', reader.auth).expect(200);
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    const notModified = await t.http.get(url).set('Authorization', reader.auth).set('If-None-Match', first.headers['etag'] as string).expect(304);
    expect(notModified.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends it with the plain-text errors of a download too (401, 403)', async () => {
    for (const [auth, status] of [[undefined, 401], [outsider.auth, 403]] as const) {
      const req = t.http.get(url);
      const res = await (auth ? req.set('Authorization', auth) : req).expect(status);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
