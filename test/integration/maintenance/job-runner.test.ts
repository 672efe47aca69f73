import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, FE, grant, listValues, paths } from '../../helpers/tracker-fixtures.ts';
import { POSITION_GAP } from '../../../src/fieldeditor/shared/fieldeditor.model.ts';
import type { JobOutcome, JobRow } from '../../../src/platform/jobs/job-types.ts';
import { claimNext, findJob } from '../../../src/platform/jobs/jobs.repository.ts';

/** Waits until the job reaches one of the end states (polling the database, as M1 would). */
async function settledJob(t: TestApp, name: string, timeoutMs = 15_000): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await findJob(t.services.db.knex, name);
    if (row && (row.status === 'SUCCESS' || row.status === 'FAILED')) return row;
    if (Date.now() > deadline) throw new Error(`job ${name} did not finish: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

describe('job runner on one node (both databases)', () => {
  let t: TestApp;
  const finished: [string, JobOutcome][] = [];
  beforeAll(async () => {
    t = await createTestApp({ JOBS_POLL_MS: '50', JOBS_LEASE_MS: '2000', JOBS_TICK_MS: '600000' });
    t.services.jobs.onRunFinished((name, outcome, seconds) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      finished.push([name, outcome]);
    });
    t.services.jobs.start();
  });
  afterAll(() => t.close());

  it('rebuilds the search table in the background and records the run, its history and its event-log entries', async () => {
    const field = await createField(t, { name: uniq('Searchable ') });
    const { knex } = t.services.db;
    // The trigger keeps the table current; then we damage it, and the job repairs it.
    expect(await knex('field_search').where({ field_id: field.id }).first()).toMatchObject({ name_key: field.name.toLowerCase() });
    await knex('field_search').where({ field_id: field.id }).update({ name_key: 'damaged' });
    // A1's filter reads the table: the damaged row is not found (and that answer is now in A1's page cache).
    const a1 = async () =>
      (await t.http.get(`${FE}/admin/customfields`).query({ filter: field.name }).set('Authorization', t.adminAuth).expect(200)).body as { total: number };
    expect((await a1()).total).toBe(0);
    const { job, scheduled } = await t.services.jobs.request('JobIndexCustomFieldSearchTable', 'admin');
    expect(scheduled).toBe(true);
    expect(job.status).toBe('SCHEDULED');
    const done = await settledJob(t, 'JobIndexCustomFieldSearchTable');
    expect(done).toMatchObject({ status: 'SUCCESS', requested_by: 'admin', node: t.services.jobs.node });
    expect(done.message).toMatch(/^indexed \d+ custom fields$/);
    expect(await knex('field_search').where({ field_id: field.id }).first()).toMatchObject({ name_key: field.name.toLowerCase() });
    // The job announced the tracker's topic when it ended, so no node answers A1 from the page it cached before.
    expect((await a1()).total).toBe(1);
    const runs = await knex('job_runs').where({ job_name: 'JobIndexCustomFieldSearchTable' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ outcome: 'SUCCESS', requested_by: 'admin' });
    const entries = await knex('event_log').where('target', '@>', JSON.stringify({ name: 'JobIndexCustomFieldSearchTable' })).orderBy('id');
    expect(entries.map((e) => [e.kind, e.actor])).toEqual([
      ['job.scheduled', 'admin'],
      ['job.finished', 'system'],
    ]);
    expect(entries[1].after).toMatchObject({ status: 'SUCCESS' });
    expect(finished).toContainEqual(['JobIndexCustomFieldSearchTable', 'SUCCESS']);
  });

  it('runs each data task once, recorded like a migration', async () => {
    const { knex } = t.services.db;
    await knex('auth_failures').insert([
      { name_key: uniq('ghost'), failures: 1 },
      { name_key: 'admin', failures: 1 },
    ]);
    const lockedGhost = uniq('lockedghost');
    await knex('auth_failures').insert({ name_key: lockedGhost, failures: 3, locked_at: knex.fn.now() });
    // States no endpoint makes, written directly: a corrupted option order (every position the same), a grant of
    // a name nobody has, a grant on a context of another field, and a default naming an option of another list.
    const field = await createField(t);
    const other = await createField(t);
    const ctx = await createContext(t, field.id);
    const otherCtx = await createContext(t, other.id);
    await grant(t, field.id, { user: 'admin' });
    const p = paths(field.id, field.defaultContextId);
    const opts = await addOptions(t, t.adminAuth, p.options, ['Gamma', 'Alpha', 'Beta']);
    const elsewhere = await addOptions(t, t.adminAuth, paths(field.id, ctx.id).options, ['Elsewhere']);
    await knex('field_options').where({ context_id: field.defaultContextId }).update({ position: 7 });
    await grant(t, field.id, { user: 'admin', contextId: ctx.id });
    const grantRow = (principal_key: string, context_id: number | null) => ({ field_id: field.id, context_id, principal_type: 'user', principal_name: principal_key, principal_key });
    await knex('field_grants').insert([grantRow(uniq('ghost-user'), null), grantRow('admin', otherCtx.id)]);
    await knex('field_default_options').insert({ context_id: field.defaultContextId, option_id: elsewhere[0]!.id, position: 0 });

    await t.services.jobs.request('JobRunDataMigrationTasks', 'admin');
    const first = await settledJob(t, 'JobRunDataMigrationTasks');
    expect(first.status).toBe('SUCCESS');
    expect(first.message).toContain('20261123-remove-unknown-auth-failures');
    // The order: positions are rank × gap again, ties resolved by id (the order the options were created in).
    const positions = await knex('field_options').where({ context_id: field.defaultContextId }).orderBy('id').pluck('position');
    expect(positions.map(Number)).toEqual([0, POSITION_GAP, 2 * POSITION_GAP]);
    expect(await listValues(t, t.adminAuth, p.options)).toEqual(opts.map((o) => o.optionvalue));
    // Only the grants that point at nothing went; the default of another list's option went.
    const grants = await knex('field_grants').where({ field_id: field.id }).orderBy('id').select('principal_key', 'context_id');
    expect(grants).toEqual([
      { principal_key: 'admin', context_id: null },
      { principal_key: 'admin', context_id: ctx.id },
    ]);
    expect(await knex('field_grants').where({ context_id: otherCtx.id })).toEqual([]);
    expect(await knex('field_default_options').where({ context_id: field.defaultContextId })).toEqual([]);
    const names = (await knex('auth_failures').select('name_key')).map((r) => r.name_key);
    expect(names).toContain('admin');
    expect(names).toContain(lockedGhost);
    expect(names.filter((n: string) => n.startsWith('ghost'))).toEqual([]);
    expect((await knex('data_migration_tasks').select('name')).map((r) => r.name).sort()).toEqual([
      '20261123-remove-dangling-grants-and-defaults',
      '20261123-remove-unknown-auth-failures',
      '20261123-repair-option-order',
    ]);
    await t.services.jobs.request('JobRunDataMigrationTasks', 'admin');
    // wait for the second run to end (runs counts claims)
    for (let i = 0; i < 300 && (await findJob(knex, 'JobRunDataMigrationTasks'))!.runs < 2; i++) await new Promise((r) => setTimeout(r, 30));
    const second = await settledJob(t, 'JobRunDataMigrationTasks');
    expect(second.message).toBe('no pending data tasks');
  });

  it('force-fail sets scheduled and running jobs to FAILED in the database only', async () => {
    const { knex } = t.services.db;
    await t.services.jobs.stop(); // nothing claims meanwhile
    await t.services.jobs.request('JobIndexCustomFieldSearchTable', 'admin');
    const failed = await t.services.jobs.forceFail('admin');
    expect(failed.map((j) => [j.name, j.previous_status])).toEqual([['JobIndexCustomFieldSearchTable', 'SCHEDULED']]);
    expect(await findJob(knex, 'JobIndexCustomFieldSearchTable')).toMatchObject({ status: 'FAILED', message: 'force-failed by admin' });
    const entry = await knex('event_log').where({ kind: 'jobs.force_failed' }).orderBy('id', 'desc').first();
    expect(entry).toMatchObject({ actor: 'admin', before: [{ name: 'JobIndexCustomFieldSearchTable', status: 'SCHEDULED' }] });
    t.services.jobs.start();
  });
});

describe('claiming a scheduled job (both databases)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(); // the runner is not started: only the claim below touches the rows
  });
  afterAll(() => t.close());

  it('claims exactly one job per call, the oldest, and records its run', async () => {
    const { knex } = t.services.db;
    await knex('jobs').insert([
      { name: 'ClaimTestOlder', status: 'SCHEDULED', scheduled_time: new Date(Date.now() - 2000) },
      { name: 'ClaimTestNewer', status: 'SCHEDULED', scheduled_time: new Date(Date.now() - 1000) },
    ]);
    const names = ['ClaimTestOlder', 'ClaimTestNewer'];
    const first = await knex.transaction((trx) => claimNext(trx, names, 'node-a', 60_000));
    expect(first?.name).toBe('ClaimTestOlder');
    // Before the fix one statement could set both RUNNING and return only one: the other never ran.
    expect(await knex('jobs').whereIn('name', names).orderBy('name').select('name', 'status')).toEqual([
      { name: 'ClaimTestNewer', status: 'SCHEDULED' },
      { name: 'ClaimTestOlder', status: 'RUNNING' },
    ]);
    const second = await knex.transaction((trx) => claimNext(trx, names, 'node-a', 60_000));
    expect(second?.name).toBe('ClaimTestNewer');
    expect(await knex.transaction((trx) => claimNext(trx, names, 'node-a', 60_000))).toBeUndefined();
    expect((await knex('job_runs').whereIn('job_name', names).select('job_name')).map((r) => r.job_name).sort()).toEqual(names.slice().sort());
  });
});
