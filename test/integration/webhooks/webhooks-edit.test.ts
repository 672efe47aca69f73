import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, uniq, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const API = '/rest/webhooks/1.0/webhook';
const ALLOWLIST = '/rest/webhooks/1.0/allowlist';

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/**
 * Issue 42, item 2 over REST: the allowlist shown read-only (with the same check a save makes), and an edit
 * (PUT) that keeps a subscription's delivery history.
 */
describe('webhooks: the allowlist read and the edit that keeps the history', () => {
  const t: TestApp = useTestApp(() => ({ WEBHOOK_ALLOWLIST: `${receiver.base}/hooks, ${receiver.base}/other/`, WEBHOOK_TIMEOUT_MS: '3000' }));
  let user: TestUser;
  beforeAll(async () => {
    user = await t.createUser(uniq('plain'));
  });
  const admin = <R extends { set(k: string, v: string): R }>(req: R) => req.set('Authorization', t.adminAuth);

  it('answers the allowlist to administrators only (401 anonymous, 403 others)', async () => {
    expect((await t.http.get(ALLOWLIST)).status).toBe(401);
    const plain = await t.http.get(ALLOWLIST).set('Authorization', user.auth);
    expect(plain.status).toBe(403);
    expect(plain.body).toHaveProperty('errorMessages');
    const res = await admin(t.http.get(ALLOWLIST)).expect(200);
    expect(res.body).toEqual({ allowlist: [`${receiver.base}/hooks`, `${receiver.base}/other/`] });
  });

  it('checks a url as a save would: allowed on the list, refused with the reason otherwise; 400 for a long one', async () => {
    const check = async (url: string) => (await admin(t.http.get(ALLOWLIST).query({ url })).expect(200)).body.url;
    expect(await check(`${receiver.base}/hooks/a`)).toEqual({ allowed: true });
    expect(await check(`${receiver.base}/other/x`)).toEqual({ allowed: true });
    for (const url of [`${receiver.base}/hooksmith`, 'http://169.254.169.254/latest', 'ftp://127.0.0.1/hooks', 'not a url']) {
      const answer = await check(url);
      expect(answer.allowed, url).toBe(false);
      expect(answer.reason, url).toMatch(/^The url cannot be used: /);
      // The save answers the same.
      const saved = await admin(t.http.post(API)).send({ name: 'x', url, events: ['option_created'] }).expect(400);
      expect(saved.body.errors.url).toBe(answer.reason);
    }
    const long = await admin(t.http.get(ALLOWLIST).query({ url: `${receiver.base}/hooks/${'a'.repeat(2100)}` })).expect(400);
    expect(JSON.stringify(long.body)).toMatch(/at most 2048/);
  });

  it('edits url, events and field filter with PUT and keeps the delivery history', async () => {
    const created = await admin(t.http.post(API)).send({ name: 'edit me', url: `${receiver.base}/hooks/one`, events: ['option_created'] }).expect(201);
    const id = created.body.id as number;
    await admin(t.http.post(`${API}/${id}/test`)).expect(200);
    const before = (await admin(t.http.get(`${API}/${id}/deliveries`)).expect(200)).body;
    expect(before.total).toBe(1);

    const put = await admin(t.http.put(`${API}/${id}`))
      .send({ name: 'edited', url: `${receiver.base}/other/two`, events: ['option_renamed', 'option_moved'], filters: { customFieldId: 10000 } })
      .expect(200);
    expect(put.body).toMatchObject({ id, name: 'edited', url: `${receiver.base}/other/two`, events: ['option_renamed', 'option_moved'], filters: { customFieldId: 10000 } });
    const after = (await admin(t.http.get(`${API}/${id}/deliveries`)).expect(200)).body;
    expect(after.total).toBe(1);
    expect(after.values[0].identifier).toBe(before.values[0].identifier);
    // A url off the list is refused on an edit too, and nothing changes.
    await admin(t.http.put(`${API}/${id}`)).send({ name: 'edited', url: `${receiver.base}/elsewhere`, events: ['option_renamed'] }).expect(400);
    expect((await admin(t.http.get(`${API}/${id}`)).expect(200)).body.url).toBe(`${receiver.base}/other/two`);
  });
});
