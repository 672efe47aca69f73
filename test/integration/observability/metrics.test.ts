import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { basic, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createMetricsServer } from '../../../src/platform/metrics/metrics.routes.ts';
import { sample } from '../../helpers/metrics-sample.ts';

const TOKEN = 'metrics-test-token-0123456789';

describe('Prometheus metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const scrape = async () => (await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, MAX_AUTH_ATTEMPTS: '2' });
  });
  afterAll(() => t.close());

  it('answers only with the bearer token, never to API users', async () => {
    const none = await t.http.get('/metrics').expect(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    await t.http.get('/metrics').set('Authorization', 'Bearer not-the-token').expect(401);
    await t.http.get('/metrics').set('Authorization', t.adminAuth).expect(401);
    const ok = await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(ok.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('times requests by route template, method and status class, never by raw URL', async () => {
    const user = await t.createUser('metrics-ann');
    const token = await t.http.post('/rest/pat/latest/tokens').set('Authorization', user.auth).send({ name: 'm' }).expect(201);
    await t.http.delete(`/rest/pat/latest/tokens/${token.body.id}`).set('Authorization', user.auth).expect(204);
    await t.http.delete('/rest/pat/latest/tokens/987654321').set('Authorization', user.auth).expect(404);
    await t.http.get('/rest/api/2/no-such-thing-4711').set('Authorization', user.auth).expect(404);
    const text = await scrape();
    const h = 'addon_pair_http_request_duration_seconds';
    expect(sample(text, `${h}_count`, { route: '/rest/pat/latest/tokens/{id}', method: 'DELETE', status_class: '2xx' })).toBe(1);
    expect(sample(text, `${h}_count`, { route: '/rest/pat/latest/tokens/{id}', method: 'DELETE', status_class: '4xx' })).toBe(1);
    expect(sample(text, `${h}_bucket`, { route: '/rest/pat/latest/tokens', method: 'POST', status_class: '2xx', le: '+Inf' })).toBe(1);
    expect(sample(text, `${h}_count`, { route: '(unmatched)', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('987654321');
    expect(text).not.toContain('4711');
  });

  it('counts cache hits and misses, failed logins and locked names', async () => {
    const user = await t.createUser('metrics-bob');
    const before = await scrape();
    const hits0 = sample(before, 'addon_pair_cache_hits_total', { cache: 'auth_basic' }) ?? 0;
    const misses0 = sample(before, 'addon_pair_cache_misses_total', { cache: 'auth_basic' }) ?? 0;
    await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(200);
    await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(200);
    await t.http.get('/rest/api/2/myself').set('Authorization', basic('metrics-bob', 'wrong')).expect(401);
    await t.http.get('/rest/api/2/myself').set('Authorization', basic('metrics-bob', 'wrong')).expect(401);
    await t.http.get('/rest/api/2/myself').set('Authorization', basic('metrics-bob', 'wrong')).expect(401);
    const text = await scrape();
    expect(sample(text, 'addon_pair_cache_hits_total', { cache: 'auth_basic' })).toBe(hits0 + 1);
    // The first login and the three wrong ones (each one lookup: the middleware's, not counted twice).
    expect(sample(text, 'addon_pair_cache_misses_total', { cache: 'auth_basic' })).toBe(misses0 + 4);
    expect(sample(text, 'addon_pair_auth_failed_logins_total', { scheme: 'basic', reason: 'failed' })).toBe(2);
    expect(sample(text, 'addon_pair_auth_failed_logins_total', { scheme: 'basic', reason: 'denied' })).toBe(1);
    expect(sample(text, 'addon_pair_auth_accounts_locked_total')).toBe(1);
    expect(sample(text, 'addon_pair_auth_locked_accounts')).toBe(1);
    await t.http.delete('/rest/api/2/user/lockout?username=metrics-bob').set('Authorization', t.adminAuth).expect(204);
    expect(sample(await scrape(), 'addon_pair_auth_locked_accounts')).toBe(0);
  });

  it('reports the change feed, the pool and the listener', async () => {
    const sent0 = sample(await scrape(), 'addon_pair_change_feed_sent_total') ?? 0;
    await t.createUser('metrics-carl');
    await t.http.put('/rest/api/2/user/password?username=metrics-carl').set('Authorization', t.adminAuth).send({ password: 'new-pw' }).expect(204);
    const text = await scrape();
    expect(sample(text, 'addon_pair_change_feed_sent_total')).toBeGreaterThan(sent0);
    expect(sample(text, 'addon_pair_change_feed_listener_up')).toBe(1);
    expect(sample(text, 'addon_pair_db_pool_connections', { state: 'in_use' })).toEqual(expect.any(Number));
    expect(sample(text, 'addon_pair_db_pool_waiting')).toBe(0);
    expect(text).toContain('# TYPE addon_pair_change_feed_ack_wait_seconds histogram');
  });
});

describe('metrics off by default and on a port of their own', () => {
  it('is not served at all without METRICS_TOKEN or METRICS_PORT', async () => {
    const t = await createTestApp();
    try {
      expect(t.services.metrics).toBeUndefined();
      await t.http.get('/metrics').expect(404);
      await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(404);
    } finally {
      await t.close();
    }
  });

  it('with METRICS_PORT, leaves the main port and answers on its own listener (with the token when set)', async () => {
    const t = await createTestApp({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN });
    try {
      await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(404);
      const own = supertest(createMetricsServer(t.services.metrics!, t.config.metrics!.token));
      await own.get('/metrics').expect(401);
      const ok = await own.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      expect(ok.text).toContain('addon_pair_http_request_duration_seconds');
      await own.get('/rest/api/2/myself').set('Authorization', t.adminAuth).expect(404);
      await own.post('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(405);
      const open = supertest(createMetricsServer(t.services.metrics!, undefined));
      await open.get('/metrics').expect(200);
    } finally {
      await t.close();
    }
  });
});

describe('job-run metrics', () => {
  it('counts finished background job runs by job name and outcome', { timeout: 90_000 }, async () => {
    const t = await createTestApp({ METRICS_TOKEN: TOKEN, JOBS_POLL_MS: '50', JOBS_TICK_MS: '3600000' });
    try {
      t.services.jobs.start();
      const ops = '/rest/trackercustomfieldeditorplugin/1/maintenance/operations';
      await t.http.post(ops).set('Authorization', t.adminAuth).send({ name: 'JobIndexCustomFieldSearchTable' }).expect(200);
      // Wait for the run to end (its outcome as M1 shows it), then for the counter of that outcome: the
      // observer runs just after the outcome commits.
      const jobs = '/rest/trackercustomfieldeditorplugin/1/maintenance/jobs?filter=JobIndexCustomFieldSearchTable';
      let outcome: string | undefined;
      for (let i = 0; i < 600 && outcome === undefined; i++) {
        const page = (await t.http.get(jobs).set('Authorization', t.adminAuth).expect(200)).body as { values: { status: string }[] };
        const status = page.values[0]?.status;
        if (status === 'SUCCESS' || status === 'FAILED') outcome = status;
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(outcome).toBeDefined();
      const scrape = async () => (await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
      const runs = (text: string) => sample(text, 'addon_pair_job_runs_total', { job: 'JobIndexCustomFieldSearchTable', outcome: outcome! });
      let text = await scrape();
      for (let i = 0; i < 100 && runs(text) === undefined; i++) {
        await new Promise((r) => setTimeout(r, 50));
        text = await scrape();
      }
      expect(runs(text)).toBe(1);
      expect(sample(text, 'addon_pair_job_run_seconds_total', { job: 'JobIndexCustomFieldSearchTable' })).toBeGreaterThanOrEqual(0);
    } finally {
      await t.close();
    }
  });
});
