import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, uniq, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContext, createField, grant, paths, type TestField } from '../../helpers/tracker-fixtures.ts';
import { validSignature, WebhookReceiver, type Received } from '../../helpers/webhook-receiver.ts';

const API = '/rest/webhooks/1.0/webhook';
const SECRET = 'It is a secret to everybody';
const ALL = ['option_created', 'option_renamed', 'option_disabled', 'option_enabled', 'option_moved', 'options_sorted', 'option_deleted', 'default_changed', 'grants_changed', 'context_changed', 'job_finished'];

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/**
 * Issue 28: subscriptions (administrators only), deliveries from the event log to a receiver on 127.0.0.1 that
 * the test's WEBHOOK_ALLOWLIST lists: every event once with a valid signature, in order after the receiver was
 * down, the allowlist at subscription and on a redirect, the history with redeliver and test events.
 */
describe('webhooks', () => {
  const t: TestApp = useTestApp(() => ({
    WEBHOOK_ALLOWLIST: `${receiver.base}/hooks`,
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_BACKOFF_MS: '30',
    WEBHOOK_TIMEOUT_MS: '3000',
  }));
  let user: TestUser;
  beforeAll(async () => {
    user = await t.createUser(uniq('plain'));
    t.services.webhooks.dispatcher.start();
  });

  const admin = <R extends { set(k: string, v: string): R }>(req: R) => req.set('Authorization', t.adminAuth);
  const subscribe = async (body: Record<string, unknown>) => {
    const res = await admin(t.http.post(API)).send({ name: uniq('hook '), url: `${receiver.base}/hooks/${uniq('h')}`, events: ALL, secret: SECRET, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; self: string; url: string };
  };
  const of = (url: string) => receiver.received.filter((r) => `${receiver.base}${r.path}` === url);
  const deliveriesOf = async (id: number) => (await admin(t.http.get(`${API}/${id}/deliveries?maxResults=1000`)).expect(200)).body;

  it('refuses anonymous callers (401) and non-administrators (403) on every route', async () => {
    for (const [method, path] of [['get', API], ['post', API], ['get', `${API}/1`], ['put', `${API}/1`], ['delete', `${API}/1`], ['get', `${API}/1/deliveries`], ['post', `${API}/1/deliveries/1/redeliver`], ['post', `${API}/1/test`]] as const) {
      const anon = await t.http[method](path).send({});
      expect(anon.status, `${method} ${path}`).toBe(401);
      expect(anon.body).toHaveProperty('errorMessages');
      const plain = await t.http[method](path).set('Authorization', user.auth).send({});
      expect(plain.status, `${method} ${path}`).toBe(403);
      expect(plain.body).toHaveProperty('errorMessages');
    }
  });

  it('validates the body (400 naming the property) and refuses a target outside the allowlist', async () => {
    const post = (body: object) => admin(t.http.post(API)).send(body);
    const base = { name: 'x', url: `${receiver.base}/hooks/a`, events: ['option_created'] };
    expect((await post({ ...base, events: [] }).expect(400)).body.errors).toHaveProperty('events');
    expect((await post({ ...base, events: ['option_exploded'] }).expect(400)).body.errors).toHaveProperty(['events.0']);
    expect((await post({ ...base, name: '' }).expect(400)).body.errors).toHaveProperty('name');
    expect((await post({ ...base, filters: { customFieldId: 'x' } }).expect(400)).body.errors).toHaveProperty(['filters.customFieldId']);
    expect((await post({ ...base, enabled: 'yes' }).expect(400)).body.errors).toHaveProperty('enabled');
    for (const url of ['http://127.0.0.1:1/other', `${receiver.base}/hooksmith`, 'http://169.254.169.254/latest/meta-data', 'ftp://127.0.0.1/hooks', 'not a url']) {
      const res = await post({ ...base, url }).expect(400);
      expect(res.body.errors.url, url).toMatch(/cannot be used/);
    }
    expect((await admin(t.http.get(API)).expect(200)).body.filter((w: { url: string }) => w.url === base.url)).toEqual([]);
  });

  it('answers 404 for an unknown subscription or delivery, 400 for a malformed id', async () => {
    const body = { name: 'x', url: `${receiver.base}/hooks/a`, events: ['option_created'] };
    await admin(t.http.get(`${API}/999999`)).expect(404);
    await admin(t.http.put(`${API}/999999`)).send(body).expect(404);
    await admin(t.http.delete(`${API}/999999`)).expect(404);
    await admin(t.http.get(`${API}/999999/deliveries`)).expect(404);
    await admin(t.http.post(`${API}/999999/test`)).expect(404);
    const hook = await subscribe({ events: ['option_created'] });
    const missing = await admin(t.http.post(`${API}/${hook.id}/deliveries/999999/redeliver`)).expect(404);
    expect(missing.body.errorMessages[0]).toMatch(/No delivery/);
    await admin(t.http.get(`${API}/abc`)).expect(400);
    await admin(t.http.get(`${API}/${hook.id}/deliveries?startAt=-1`)).expect(400);
  });

  it('creates (201, id, self, Location), shows hasSecret but never the secret, updates and deletes', async () => {
    const res = await admin(t.http.post(API)).send({ name: 'Mine', url: `${receiver.base}/hooks/crud`, events: ['option_created', 'option_created'], secret: SECRET }).expect(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Mine', events: ['option_created'], hasSecret: true, enabled: true, status: 'ok', filters: { customFieldId: null, contextId: null } });
    expect(res.body.self).toBe(`${t.config.baseUrl}${API}/${res.body.id}`);
    expect(res.headers.location).toBe(res.body.self);
    const list = await admin(t.http.get(API)).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    expect(list.body.find((w: { id: number }) => w.id === res.body.id)).toEqual(res.body);
    // PUT without a secret keeps it; null removes it.
    const put = await admin(t.http.put(`${API}/${res.body.id}`)).send({ name: 'Renamed', url: `${receiver.base}/hooks/crud`, events: ['job_finished'], filters: { customFieldId: 'customfield_10001' }, enabled: false }).expect(200);
    expect(put.body).toMatchObject({ name: 'Renamed', events: ['job_finished'], hasSecret: true, enabled: false, filters: { customFieldId: 10001, contextId: null } });
    expect((await admin(t.http.put(`${API}/${res.body.id}`)).send({ name: 'R', url: `${receiver.base}/hooks/crud`, events: ['job_finished'], secret: null }).expect(200)).body.hasSecret).toBe(false);
    await admin(t.http.delete(`${API}/${res.body.id}`)).expect(204);
    await admin(t.http.get(`${API}/${res.body.id}`)).expect(404);
  });

  describe('deliveries', () => {
    let field: TestField;
    let p: ReturnType<typeof paths>;
    beforeAll(async () => {
      field = await createField(t);
      p = paths(field.id, 'default');
    });

    it('delivers every event type once, signed, in event-log order; a filter narrows it', async () => {
      const all = await subscribe({});
      const filtered = await subscribe({ events: ['option_created'], filters: { customFieldId: field.id, contextId: field.defaultContextId } });
      const other = await createField(t);
      await grant(t, field.id, { user: 'admin' }); // grants_changed
      await grant(t, other.id, { user: 'admin' });
      await createContext(t, field.id); // context_changed
      const create = (path: string, optionvalue: string) => admin(t.http.post(path)).send({ optionvalue }).expect(200);
      const a = (await create(p.options, 'Alpha')).body; // option_created
      const b = (await create(p.options, 'Bravo')).body;
      await create(paths(other.id, 'default').options, 'Elsewhere');
      await admin(t.http.put(p.option(a.id))).send({ optionvalue: 'Alpha 2' }).expect(200); // option_renamed
      await admin(t.http.put(p.option(a.id))).send({ disabled: true }).expect(200); // option_disabled
      await admin(t.http.put(p.option(a.id))).send({ disabled: false }).expect(200); // option_enabled
      await admin(t.http.post(p.move(b.id))).send({ position: 'First' }).expect(200); // option_moved
      await admin(t.http.put(p.sort)).send({ locale: 'en', order: 'ASCENDING' }).expect(200); // options_sorted
      await admin(t.http.put(p.default)).send({ optionId: b.id }).expect(200); // default_changed
      await admin(t.http.delete(p.option(a.id))).expect(200); // option_deleted
      await t.services.jobs.request('JobIndexCustomFieldSearchTable', 'admin');
      t.services.jobs.start(); // job_finished

      const got = await receiver.until(() => of(all.url).some((r) => r.body.webhookEvent === 'job_finished'));
      // More jobs may finish (the scheduled housekeeping): wait until nothing is pending, then read what came.
      for (let end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        const page = await deliveriesOf(all.id);
        if (page.values.every((d: { status: string }) => d.status === 'delivered') && page.total === of(all.url).length) break;
      }
      const mine = of(all.url);
      expect(new Set(mine.map((r) => r.body.webhookEvent))).toEqual(new Set(ALL));
      const ids = mine.map((r) => r.body.eventLogId!);
      expect(ids, 'each event once, in event-log order').toEqual([...new Set(ids)].sort((x, y) => x - y));
      for (const r of mine) {
        expect(validSignature(SECRET, r), r.raw).toBe(true);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        expect(r.headers['x-atlassian-webhook-identifier']).toMatch(/^[0-9a-f-]{36}$/);
        expect(Math.abs(r.body.timestamp - Date.now())).toBeLessThan(60_000);
      }
      const renamed = mine.find((r) => r.body.webhookEvent === 'option_renamed')!.body;
      expect(renamed).toMatchObject({ user: { name: 'admin' }, customFieldId: field.id, contextId: field.defaultContextId, option: { optionvalue: 'Alpha 2' }, before: { optionvalue: 'Alpha' } });
      expect(mine.find((r) => r.body.webhookEvent === 'option_created')!.body).toMatchObject({ option: { optionvalue: 'Alpha' } });
      expect(mine.find((r) => r.body.webhookEvent === 'option_deleted')!.body).toMatchObject({ before: { optionvalue: 'Alpha 2' } });
      // The filter: option_created of this field and context only.
      await receiver.until(() => of(filtered.url).length >= 2);
      expect(of(filtered.url).map((r) => [r.body.webhookEvent, (r.body.option as { optionvalue: string }).optionvalue])).toEqual([
        ['option_created', 'Alpha'],
        ['option_created', 'Bravo'],
      ]);
      expect(got.length).toBeGreaterThan(0);
      // The history: newest first, every delivery delivered with the receiver's answer.
      const history = await deliveriesOf(all.id);
      expect(history).toMatchObject({ startAt: 0, isLast: true, total: mine.length });
      expect(history.values.map((d: { eventLogId: number }) => d.eventLogId)).toEqual([...ids].reverse());
      expect(history.values[0]).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 200, responseBody: 'thanks', durationMs: expect.any(Number) });
      const page = (await admin(t.http.get(`${API}/${all.id}/deliveries?startAt=1&maxResults=2`)).expect(200)).body;
      expect(page).toMatchObject({ startAt: 1, maxResults: 2, total: mine.length, isLast: false });
      expect(page.values.map((d: { id: number }) => d.id)).toEqual(history.values.slice(1, 3).map((d: { id: number }) => d.id));
    });

    it('keeps retrying while the receiver is down, then delivers everything in order', async () => {
      const hook = await subscribe({ events: ['option_created'] });
      await receiver.stop();
      const values = Array.from({ length: 5 }, (_, i) => uniq(`down${i}-`));
      for (const v of values) await admin(t.http.post(p.options)).send({ optionvalue: v }).expect(200);
      // Attempts fail and are retried (back-off 30 ms doubling); the head blocks the rest.
      for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        const head = (await deliveriesOf(hook.id)).values.at(-1);
        if (head?.attempts >= 3) break;
      }
      const waiting = (await deliveriesOf(hook.id)).values;
      expect(waiting.at(-1)).toMatchObject({ status: 'pending', responseStatus: null, error: expect.stringMatching(/could not connect/) });
      expect(waiting.at(-1).attempts).toBeGreaterThanOrEqual(3);
      expect(waiting.slice(0, -1).every((d: { attempts: number }) => d.attempts === 0)).toBe(true);
      await receiver.start(receiver.port);
      await receiver.until(() => of(hook.url).length >= 5);
      expect(of(hook.url).map((r) => (r.body.option as { optionvalue: string }).optionvalue)).toEqual(values);
      expect((await admin(t.http.get(`${API}/${hook.id}`)).expect(200)).body.status).toBe('ok');
    });

    it('sends nothing while paused, and the changes made meanwhile in order once enabled again', async () => {
      const hook = await subscribe({ events: ['option_created'] });
      const body = { name: 'paused', url: hook.url, events: ['option_created'] };
      await admin(t.http.put(`${API}/${hook.id}`)).send({ ...body, enabled: false }).expect(200);
      const values = [uniq('p1-'), uniq('p2-'), uniq('p3-')];
      for (const v of values) await admin(t.http.post(p.options)).send({ optionvalue: v }).expect(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(of(hook.url)).toEqual([]);
      expect((await admin(t.http.get(`${API}/${hook.id}`)).expect(200)).body).toMatchObject({ enabled: false, hasSecret: true });
      await admin(t.http.put(`${API}/${hook.id}`)).send({ ...body, enabled: true }).expect(200);
      await receiver.until(() => of(hook.url).length >= 3);
      expect(of(hook.url).map((r) => (r.body.option as { optionvalue: string }).optionvalue)).toEqual(values);
    });

    it('does not follow a redirect (the attempt fails), sends test events and redelivers with the same identifier', async () => {
      const hook = await subscribe({ events: ['option_created'] });
      receiver.status = 302;
      const test = await admin(t.http.post(`${API}/${hook.id}/test`)).expect(200);
      receiver.status = 200;
      expect(test.body).toMatchObject({ webhookEvent: 'test', status: 'failed', responseStatus: 302, error: expect.stringMatching(/redirects are not followed/) });
      const ok = await admin(t.http.post(`${API}/${hook.id}/test`)).expect(200);
      expect(ok.body).toMatchObject({ webhookEvent: 'test', status: 'delivered', responseStatus: 200, attempts: 1 });
      const sent = of(hook.url).find((r) => r.headers['x-atlassian-webhook-identifier'] === ok.body.identifier)!;
      expect(sent.body).toMatchObject({ webhookEvent: 'test', eventLogId: null });
      expect(validSignature(SECRET, sent)).toBe(true);
      const again = await admin(t.http.post(`${API}/${hook.id}/deliveries/${ok.body.id}/redeliver`)).expect(200);
      expect(again.body).toMatchObject({ identifier: ok.body.identifier, status: 'delivered' });
      expect(again.body.id).not.toBe(ok.body.id);
      expect(of(hook.url).filter((r) => r.headers['x-atlassian-webhook-identifier'] === ok.body.identifier)).toHaveLength(2);
    });

    it('a redirect during delivery leaves the event pending, never sent to the redirect target', async () => {
      const hook = await subscribe({ events: ['option_created'] });
      receiver.status = 307;
      receiver.location = `${receiver.base}/elsewhere`;
      await admin(t.http.post(p.options)).send({ optionvalue: uniq('redirected') }).expect(200);
      let head: { status: string; attempts: number; responseStatus: number; error: string } | undefined;
      for (const end = Date.now() + 10_000; Date.now() < end && !(head && head.attempts >= 2); await new Promise((r) => setTimeout(r, 30))) {
        head = (await deliveriesOf(hook.id)).values.at(-1);
      }
      receiver.status = 200;
      expect(head).toMatchObject({ status: 'pending', responseStatus: 307, error: expect.stringMatching(/redirects are not followed/) });
      expect(receiver.received.filter((r: Received) => r.path === '/elsewhere')).toEqual([]);
      await receiver.until(() => of(hook.url).length === 1);
    });
  });
});

describe('webhooks: history truncated with the event log', () => {
  const t: TestApp = useTestApp(() => ({ WEBHOOK_ALLOWLIST: `${receiver.base}/`, WEBHOOK_POLL_MS: '20' }));

  it('deletes settled deliveries with the entries a deletion action deletes, and keeps pending ones', async () => {
    const auth = { Authorization: t.adminAuth };
    const hook = (await t.http.post(API).set(auth).send({ name: 'h', url: `${receiver.base}/truncated`, events: ['option_created'] }).expect(201)).body;
    const delivered = (await t.http.post(`${API}/${hook.id}/test`).set(auth).expect(200)).body;
    expect(delivered.status).toBe('delivered');
    const knex = t.services.db.knex;
    await knex('webhook_deliveries').insert({ webhook_id: hook.id, event: 'option_created', identifier: '00000000-0000-4000-8000-000000000001', payload: '{}', next_attempt_at: new Date(Date.now() + 3_600_000) });
    await t.http.post('/rest/trackercustomfieldeditorplugin/1/maintenance/operations').set(auth).send({ name: 'MaintenanceActionDeleteAllEventLogEntries' }).expect(200);
    const left = (await t.http.get(`${API}/${hook.id}/deliveries`).set(auth).expect(200)).body.values;
    expect(left.map((d: { status: string }) => d.status)).toEqual(['pending']);
  });
});

describe('webhooks: a delivery retried for the whole retry period', () => {
  const t: TestApp = useTestApp(() => ({ WEBHOOK_ALLOWLIST: `${receiver.base}/`, WEBHOOK_POLL_MS: '20', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_RETRY_SECONDS: '1' }));

  it('is given up, and the subscription is marked failing until a delivery succeeds', async () => {
    t.services.webhooks.dispatcher.start();
    const field = await createField(t);
    await grant(t, field.id, { user: 'admin' });
    const hook = (await t.http.post(API).set('Authorization', t.adminAuth).send({ name: 'f', url: `${receiver.base}/failing`, events: ['option_created'] }).expect(201)).body;
    receiver.status = 500;
    await t.http.post(paths(field.id, 'default').options).set('Authorization', t.adminAuth).send({ optionvalue: 'Lost cause' }).expect(200);
    let status = 'ok';
    for (const end = Date.now() + 10_000; status !== 'failing' && Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      status = (await t.http.get(`${API}/${hook.id}`).set('Authorization', t.adminAuth)).body.status;
    }
    receiver.status = 200;
    expect(status).toBe('failing');
    const history = (await t.http.get(`${API}/${hook.id}/deliveries`).set('Authorization', t.adminAuth).expect(200)).body.values;
    expect(history[0]).toMatchObject({ status: 'failed', responseStatus: 500, responseBody: 'not now', nextAttempt: null });
    await t.http.post(paths(field.id, 'default').options).set('Authorization', t.adminAuth).send({ optionvalue: 'Back' }).expect(200);
    for (const end = Date.now() + 10_000; status !== 'ok' && Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      status = (await t.http.get(`${API}/${hook.id}`).set('Authorization', t.adminAuth)).body.status;
    }
    expect(status).toBe('ok');
  });
});

describe('webhooks: metrics', () => {
  const TOKEN = 'webhook-metrics-token-0123456789';
  const t: TestApp = useTestApp(() => ({ WEBHOOK_ALLOWLIST: `${receiver.base}/`, WEBHOOK_POLL_MS: '20', WEBHOOK_BACKOFF_MS: '40', METRICS_TOKEN: TOKEN }));
  /** One sample of the exposition (`name{labels} value`), 0 when absent. */
  const sample = async (name: string, labels = '') => {
    const text = (await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
    const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `) || l.startsWith(`${name}${labels}{`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  it('count attempts by outcome, and report the age of the oldest undelivered change until it is delivered', async () => {
    t.services.webhooks.dispatcher.start();
    const field = await createField(t);
    await grant(t, field.id, { user: 'admin' });
    await t.http.post(API).set('Authorization', t.adminAuth).send({ name: 'm', url: `${receiver.base}/metrics`, events: ['option_created'] }).expect(201);
    receiver.status = 503;
    await t.http.post(paths(field.id, 'default').options).set('Authorization', t.adminAuth).send({ optionvalue: 'Counted' }).expect(200);
    for (let end = Date.now() + 10_000; (await sample('addon_pair_webhook_deliveries_total', '{outcome="retried"}')) < 2 && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // The oldest undelivered change grows a second old while it is retried.
    for (let end = Date.now() + 10_000; (await sample('addon_pair_webhook_lag_seconds')) < 1 && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await sample('addon_pair_webhook_deliveries_total', '{outcome="retried"}')).toBeGreaterThanOrEqual(2);
    expect(await sample('addon_pair_webhook_lag_seconds')).toBeGreaterThanOrEqual(1);
    receiver.status = 200;
    await receiver.until((r) => r.some((x) => x.path === '/metrics'));
    for (let end = Date.now() + 10_000; (await sample('addon_pair_webhook_lag_seconds')) > 0 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    expect(await sample('addon_pair_webhook_deliveries_total', '{outcome="delivered"}')).toBe(1);
    expect(await sample('addon_pair_webhook_lag_seconds')).toBe(0);
  });
});
