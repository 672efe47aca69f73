import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/test-app.ts';

const API = '/rest/webhooks/1.0/webhook';
const BASE = 'http://127.0.0.1:9';

/**
 * Issue 44, low finding: a webhook URL with user information (`https://u:p@host/…`) was stored, shown in every
 * listing and not used. It is refused with 400 naming `url` on create and on replace, the password never echoed.
 */
describe('webhooks: URLs with user information (issue 44)', () => {
  const t = useTestApp({ WEBHOOK_ALLOWLIST: `${BASE}/hooks` });
  const admin = <R extends { set(k: string, v: string): R }>(req: R) => req.set('Authorization', t.adminAuth);

  it('refuses user:password@, user@ and :password@ on create and replace; nothing is stored', async () => {
    const body = { name: 'creds', url: `${BASE}/hooks/plain`, events: ['option_created'] };
    const created = await admin(t.http.post(API)).send(body).expect(201);
    for (const url of ['http://u:s3cret@127.0.0.1:9/hooks/x', 'http://u@127.0.0.1:9/hooks/x', 'http://:s3cret@127.0.0.1:9/hooks/x']) {
      const post = await admin(t.http.post(API)).send({ ...body, url }).expect(400);
      expect(post.body.errors.url, url).toMatch(/user information/);
      expect(JSON.stringify(post.body)).not.toContain('s3cret');
      const put = await admin(t.http.put(`${API}/${created.body.id}`)).send({ ...body, url }).expect(400);
      expect(put.body.errors.url).toMatch(/user information/);
    }
    const listed = (await admin(t.http.get(API)).expect(200)).body as { url: string }[];
    expect(listed.map((w) => w.url)).toEqual([`${BASE}/hooks/plain`]);
  });
});
