import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { FE } from '../../helpers/tracker-fixtures.ts';
import { appendEvents } from '../../../src/fieldeditor/maintenance/event-log.repository.ts';
import { findJob } from '../../../src/platform/jobs/jobs.repository.ts';

const BASES = ['/rest/trackercustomfieldeditorplugin/1', '/rest/jiracustomfieldeditorplugin/1', '/rest/trackercustomfieldeditorplugin/1.2', '/rest/jiracustomfieldeditorplugin/1.2'];
const ENDPOINTS: { method: 'get' | 'post' | 'put'; path: string; body?: unknown }[] = [
  { method: 'get', path: '/maintenance/jobs' },
  { method: 'post', path: '/maintenance/operations', body: { name: 'JobIndexCustomFieldSearchTable' } },
  { method: 'get', path: '/maintenance/event_log_entries' },
  { method: 'get', path: '/maintenance/event_log_entries/truncate_schedule' },
  { method: 'put', path: '/maintenance/event_log_entries/truncate_schedule', body: { enabled: false, olderThanDays: 30 } },
];
const JOB_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

describe('field editor maintenance endpoints', () => {
  let t: TestApp;
  let user: TestUser;
  let sysadmin: TestUser;
  beforeAll(async () => {
    // LOCKOUT_MINUTES=0: locks never expire, so the pruning test below can show that a locked counter stays.
    t = await createTestApp({ JOBS_POLL_MS: '50', JOBS_TICK_MS: '3600000', LOCKOUT_MINUTES: '0' });
    user = await t.createUser('maint-user');
    sysadmin = await t.createUser('maint-sysadmin', { sysadmin: true });
  });
  afterAll(() => t.close());

  const call = (e: (typeof ENDPOINTS)[number], base: string, auth?: string) => {
    const req = t.http[e.method](`${base}${e.path}`);
    if (auth) req.set('Authorization', auth);
    return e.body === undefined ? req : req.send(e.body as object);
  };

  it('answers 401 without or with a wrong credential, 403 to non-administrators, on every endpoint and base path', async () => {
    const cases = BASES.flatMap((base) => ENDPOINTS.map((e) => ({ base, e })));
    await Promise.all(
      cases.map(async ({ base, e }) => {
        const anon = await call(e, base);
        expect(anon.status, `${e.method} ${base}${e.path}`).toBe(401);
        expect(anon.body).toMatchObject({ statusCode: 401, subCode: 401000 });
        expect((await call(e, base, 'Basic bm9ib2R5Om5vcGU=')).status).toBe(401);
        const denied = await call(e, base, user.auth);
        expect(denied.status, `${e.method} ${base}${e.path}`).toBe(403);
        expect(denied.body).toMatchObject({ statusCode: 403, subCode: 403000 });
      }),
    );
    // Nothing was scheduled by the refused requests.
    expect(await findJob(t.services.db.knex, 'JobIndexCustomFieldSearchTable')).toBeUndefined();
  }, 120_000);

  it('answers 412 under the 1.2 base paths (the maintenance endpoints came later), 200 under 1', async () => {
    for (const base of BASES.filter((b) => b.endsWith('1.2'))) {
      const res = await t.http.get(`${base}/maintenance/jobs`).set('Authorization', t.adminAuth);
      expect(res.status).toBe(412);
      expect(res.body).toMatchObject({ statusCode: 412, subCode: 412000 });
    }
    expect((await t.http.get('/rest/jiracustomfieldeditorplugin/1/maintenance/jobs').set('Authorization', sysadmin.auth)).status).toBe(200);
  });

  it('M2 refuses an unknown or missing name with 400000 naming `name` and listing the accepted names', async () => {
    for (const body of [{ name: 'JobNope' }, {}, { name: 3 }]) {
      const res = await t.http.post(`${FE}/maintenance/operations`).set('Authorization', t.adminAuth).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, subCode: 400000, message: 'validation errors' });
      expect(res.body.errors[0].name).toBe('name');
      expect(res.body.errors[0].message).toContain('JobRunDataMigrationTasks');
      expect(res.body.errors[0].message).toContain('MaintenanceActionForceFailRunningAndScheduledJobs');
    }
    const bad = await t.http.post(`${FE}/maintenance/operations`).set('Authorization', t.adminAuth).set('Content-Type', 'application/json').send('{"name":');
    expect(bad.status).toBe(400);
    expect(bad.body.subCode).toBe(400000);
  });

  it('M2 schedules a job and answers its entry; M1 lists it with the documented members and formats', async () => {
    const res = await t.http.post(`${FE}/maintenance/operations`).set('Authorization', t.adminAuth).send({ name: 'JobRunDataMigrationTasks' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'JobRunDataMigrationTasks', status: 'SCHEDULED', finishedTime: null });
    expect(res.body.scheduledTime).toMatch(JOB_TIME);
    t.services.jobs.start();
    for (let i = 0; i < 300; i++) {
      if ((await findJob(t.services.db.knex, 'JobRunDataMigrationTasks'))?.status === 'SUCCESS') break;
      await new Promise((r) => setTimeout(r, 30));
    }
    const list = await t.http.get(`${FE}/maintenance/jobs`).set('Authorization', t.adminAuth);
    expect(list.status).toBe(200);
    // The scheduled pruning ran at the runner's start too (first tick).
    expect(list.body).toMatchObject({ startAt: 0, maxResults: 20 });
    expect(list.body.total).toBe(list.body.values.length);
    expect(typeof list.body.processingTimeInMs).toBe('number');
    const entry = list.body.values.find((v: { name: string }) => v.name === 'JobRunDataMigrationTasks');
    expect(Object.keys(entry).slice(0, 4)).toEqual(['name', 'status', 'scheduledTime', 'finishedTime']);
    expect(entry).toMatchObject({ name: 'JobRunDataMigrationTasks', status: 'SUCCESS', runs: 1 });
    expect(entry.finishedTime).toMatch(JOB_TIME);
    expect(entry.startedTime).toMatch(JOB_TIME);
  });

  it('M1 pages, orders (+/-, a space for an unencoded +) and filters by name', async () => {
    const { knex } = t.services.db;
    await t.services.jobs.stop();
    await knex('jobs').where({ name: 'JobPruneAuthFailures' }).del().returning('name');
    await knex('jobs').insert([
      { name: 'JobIndexCustomFieldSearchTable', status: 'FAILED', scheduled_time: new Date('2026-01-01T00:00:00Z') },
      { name: 'JobTruncateEventLog', status: 'SUCCESS', scheduled_time: new Date('2026-02-01T00:00:00Z') },
    ]);
    const names = async (query: string) => {
      const res = await t.http.get(`${FE}/maintenance/jobs?${query}`).set('Authorization', t.adminAuth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.values as { name: string }[]).map((v) => v.name);
    };
    expect(await names('')).toEqual(['JobIndexCustomFieldSearchTable', 'JobRunDataMigrationTasks', 'JobTruncateEventLog']);
    expect(await names('orderBy=-name')).toEqual(['JobTruncateEventLog', 'JobRunDataMigrationTasks', 'JobIndexCustomFieldSearchTable']);
    expect(await names('orderBy=+name&startAt=1&maxResults=1')).toEqual(['JobRunDataMigrationTasks']);
    expect(await names('orderBy= status')).toEqual(['JobIndexCustomFieldSearchTable', 'JobRunDataMigrationTasks', 'JobTruncateEventLog']);
    expect((await names('orderBy=-scheduledTime'))[0]).toBe('JobRunDataMigrationTasks');
    expect(await names('filter=INDEX')).toEqual(['JobIndexCustomFieldSearchTable']);
    expect(await names('filter=%25')).toEqual([]);
    for (const bad of ['orderBy=size', 'startAt=-1', 'maxResults=x', 'startAt=1&startAt=2']) {
      const res = await t.http.get(`${FE}/maintenance/jobs?${bad}`).set('Authorization', t.adminAuth);
      expect(res.status, bad).toBe(400);
      expect(res.body.subCode).toBe(400000);
    }
  });

  it('M3 reads and replaces the truncation schedule, validates it, and records the change', async () => {
    const get = await t.http.get(`${FE}/maintenance/event_log_entries/truncate_schedule`).set('Authorization', t.adminAuth);
    expect(get.body).toEqual({ enabled: false, olderThanDays: 90 });
    for (const body of [{ enabled: true }, { enabled: 'yes', olderThanDays: 3 }, { enabled: true, olderThanDays: 0 }, { enabled: true, olderThanDays: 1.5 }, { enabled: true, olderThanDays: 3, x: 1 }, []]) {
      const res = await t.http.put(`${FE}/maintenance/event_log_entries/truncate_schedule`).set('Authorization', t.adminAuth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.subCode).toBe(400000);
    }
    expect((await t.http.get(`${FE}/maintenance/event_log_entries/truncate_schedule`).set('Authorization', t.adminAuth)).body.olderThanDays).toBe(90);
    const put = await t.http.put(`${FE}/maintenance/event_log_entries/truncate_schedule`).set('Authorization', t.adminAuth).send({ enabled: true, olderThanDays: 7 });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ enabled: true, olderThanDays: 7 });
    expect((await t.http.get(`${FE}/maintenance/event_log_entries/truncate_schedule`).set('Authorization', sysadmin.auth)).body).toEqual({ enabled: true, olderThanDays: 7 });
    const log = await t.http.get(`${FE}/maintenance/event_log_entries?kind=settings.changed`).set('Authorization', t.adminAuth);
    expect(log.body.total).toBe(1);
    expect(log.body.values[0]).toMatchObject({
      actor: 'admin',
      kind: 'settings.changed',
      target: { type: 'setting', key: 'eventLogTruncateSchedule' },
      before: { enabled: false, olderThanDays: 90 },
      after: { enabled: true, olderThanDays: 7 },
    });
  });

  it('lists the event log newest first, filtered by time, kind, actor and field, one page at a time', async () => {
    const { knex } = t.services.db;
    await knex('event_log').del().returning('id');
    const at = (iso: string) => new Date(iso);
    await appendEvents(knex, [
      { actor: 'Alice', kind: 'option.created', fieldId: 10, contextId: 20, target: { type: 'option', id: 1 }, after: { optionvalue: 'A' } },
      { actor: 'bob', kind: 'option.renamed', fieldId: 10, contextId: 20, target: { type: 'option', id: 1 }, before: { optionvalue: 'A' }, after: { optionvalue: 'B' } },
      { actor: 'system', kind: 'grant.revoked', fieldId: 11, target: { type: 'user', name: 'gone' } },
    ]);
    const rows = await knex('event_log').orderBy('id').select('id');
    await knex('event_log').where({ id: rows[0].id }).update({ created_at: at('2026-01-01T10:00:00Z') });
    await knex('event_log').where({ id: rows[1].id }).update({ created_at: at('2026-01-02T10:00:00Z') });
    await knex('event_log').where({ id: rows[2].id }).update({ created_at: at('2026-01-03T10:00:00Z') });
    const list = async (query: string) => {
      const res = await t.http.get(`${FE}/maintenance/event_log_entries?${query}`).set('Authorization', t.adminAuth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { total: number; startAt: number; maxResults: number; values: { kind: string; actor: string; time: string }[] };
    };
    const all = await list('');
    expect(all.values.map((v) => v.kind)).toEqual(['grant.revoked', 'option.renamed', 'option.created']);
    expect(all.values[2]).toMatchObject({ time: '2026-01-01T10:00:00+0000', actor: 'Alice', fieldId: 10, contextId: 20, target: { type: 'option', id: 1 }, before: null, after: { optionvalue: 'A' } });
    expect((await list('kind=option.*')).total).toBe(2);
    expect((await list('kind=grant.revoked,option.created')).values.map((v) => v.kind)).toEqual(['grant.revoked', 'option.created']);
    expect((await list('actor=alice')).values.map((v) => v.actor)).toEqual(['Alice']);
    expect((await list('fieldId=customfield_11')).values.map((v) => v.kind)).toEqual(['grant.revoked']);
    expect((await list('from=2026-01-02T00:00:00%2B0000&to=2026-01-03T10:00:00Z')).values.map((v) => v.kind)).toEqual(['option.renamed']);
    const page = await list('startAt=1&maxResults=1');
    expect(page).toMatchObject({ total: 3, startAt: 1, maxResults: 1 });
    expect(page.values.map((v) => v.kind)).toEqual(['option.renamed']);
    for (const bad of ['from=yesterday', 'kind=DROP TABLE', 'fieldId=x', 'maxResults=-1', 'actor=a&actor=b']) {
      const res = await t.http.get(`${FE}/maintenance/event_log_entries?${bad}`).set('Authorization', t.adminAuth);
      expect(res.status, bad).toBe(400);
      expect(res.body.subCode).toBe(400000);
    }
  });

  it('deletes entries older than a month, then all of them, each time leaving the entry that records it', async () => {
    const { knex } = t.services.db;
    await appendEvents(knex, [{ actor: 'x', kind: 'option.created', target: { type: 'option', id: 2 } }]);
    const old = await knex('event_log').count({ n: '*' }).where('created_at', '<', new Date(Date.now() - 31 * 86_400_000)).first();
    expect(Number(old!.n)).toBe(3);
    const a = await t.http.post(`${FE}/maintenance/operations`).set('Authorization', t.adminAuth).send({ name: 'MaintenanceActionDeleteEventLogEntriesOlderThanOneMonth' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({});
    const after = await knex('event_log').select('kind', 'after').orderBy('id');
    expect(after.map((e) => e.kind)).not.toContain('grant.revoked');
    expect(after.at(-1)).toMatchObject({ kind: 'event_log.deleted', after: { deleted: 3 } });
    const b = await t.http.post(`${FE}/maintenance/operations`).set('Authorization', t.adminAuth).send({ name: 'MaintenanceActionDeleteAllEventLogEntries' });
    expect(b.status).toBe(200);
    const left = await knex('event_log').select('kind', 'actor', 'after');
    expect(left).toEqual([{ kind: 'event_log.deleted', actor: 'admin', after: { deleted: after.length, before: null } }]);
  });

  // Each job must have a run that STARTED after the rows below were written: a run already under way when it
  // was requested (the runner's own first tick) is silently kept, as M2 says, and may have read the table before.
  it('the truncation job deletes by age only, and the pruning job removes stale unlocked failure counters', async () => {
    const { knex } = t.services.db;
    await appendEvents(knex, [
      { actor: 'x', kind: 'option.created', target: { type: 'option', id: 3 } },
      { actor: 'x', kind: 'option.created', target: { type: 'option', id: 4 } },
    ]);
    await knex('event_log').whereRaw("target->>'id' = '3'").update({ created_at: new Date(Date.now() - 8 * 86_400_000) });
    // Off: only the requested run below truncates (a run requested by M2 uses the schedule's age too).
    await t.http.put(`${FE}/maintenance/event_log_entries/truncate_schedule`).set('Authorization', t.adminAuth).send({ enabled: false, olderThanDays: 7 });
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    await knex('auth_failures').insert([
      { name_key: 'stale-unlocked', failures: 1, last_failure_at: hoursAgo(30) },
      { name_key: 'fresh-unlocked', failures: 1, last_failure_at: hoursAgo(1) },
      { name_key: 'stale-locked', failures: 3, locked_at: hoursAgo(30), last_failure_at: hoursAgo(30) },
    ]);
    const since = ((await knex.raw('select now() as now')) as { rows: { now: Date }[] }).rows[0]!.now;
    t.services.jobs.start();
    const runAfterwards = async (name: string) => {
      for (let i = 0; i < 600; i++) {
        const run = await knex('job_runs').where({ job_name: name }).andWhere('started_time', '>=', since).whereNotNull('outcome').first('outcome', 'message');
        if (run) return run as { outcome: string; message: string | null };
        const job = await findJob(knex, name);
        if (job?.status !== 'SCHEDULED' && job?.status !== 'RUNNING') {
          await t.http.post(`${FE}/maintenance/operations`).set('Authorization', t.adminAuth).send({ name }).expect(200);
        }
        await new Promise((r) => setTimeout(r, 30));
      }
      return { outcome: `no run of ${name} started after the rows were written (since ${since.toISOString()}): ${JSON.stringify(await findJob(knex, name))}`, message: null };
    };
    // (Another run may have been scheduled meanwhile; the one that counts is the run found, not the job's latest state.)
    const [truncation, pruning] = await Promise.all([runAfterwards('JobTruncateEventLog'), runAfterwards('JobPruneAuthFailures')]);
    expect([truncation.outcome, pruning.outcome]).toEqual(['SUCCESS', 'SUCCESS']);
    const ids = (await knex('event_log').where({ kind: 'option.created' }).select('target')).map((r) => r.target.id);
    expect(ids).toEqual([4]);
    expect(await knex('event_log').where({ kind: 'event_log.truncated' }).andWhere('created_at', '>=', since).orderBy('id').first()).toMatchObject({ actor: 'system', after: { deleted: 1, olderThanDays: 7 } });
    const names = (await knex('auth_failures').whereLike('name_key', '%-%locked').select('name_key')).map((r) => r.name_key).sort();
    expect(names).toEqual(['fresh-unlocked', 'stale-locked']);
    expect(pruning.message).toMatch(/^pruned \d+ failed-login counters$/);
  });
});
