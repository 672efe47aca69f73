import type { Knex } from 'knex';
import type { JobOutcome, JobRow, JobStatus } from './job-types.ts';

/**
 * Knex access to `jobs` and `job_runs`. Every state change is one conditional statement, so that with many
 * nodes on one database exactly one of them wins: a request only moves a job that is neither scheduled nor
 * running, a claim only takes a SCHEDULED row (locked, skipping rows another node is claiming), and every
 * later write of a run names its ticket, so a node that lost its claim changes nothing.
 */
const leaseUntil = (q: Knex, leaseMs: number) => q.raw('now() + make_interval(secs => ?)', [leaseMs / 1000]);

/** The current schedule tick: database time (one clock for the whole cluster) divided by the tick length. */
export async function currentTick(q: Knex, tickMs: number): Promise<number> {
  const { rows } = await q.raw<{ rows: { tick: number | string }[] }>('select floor(extract(epoch from now()) * 1000 / ?)::bigint as tick', [tickMs]);
  return Number(rows[0]!.tick);
}

/**
 * Schedules a run unless the job is already scheduled or running (then nothing changes and `undefined`
 * is returned). With `tick`, only when that tick was not claimed yet: one node per tick wins.
 */
export async function requestRun(q: Knex, name: string, by: string, tick: number | null): Promise<JobRow | undefined> {
  const tickGuard = tick === null ? '' : 'and (jobs.last_tick is null or jobs.last_tick < excluded.last_tick)';
  const { rows } = await q.raw<{ rows: JobRow[] }>(
    `insert into jobs (name, status, scheduled_time, requested_by, last_tick, scheduled_tick)
     values (?, 'SCHEDULED', now(), ?, ?, ?)
     on conflict (name) do update set
       status = 'SCHEDULED', scheduled_time = now(), started_time = null, finished_time = null, message = null,
       requested_by = excluded.requested_by, scheduled_tick = excluded.scheduled_tick,
       last_tick = coalesce(excluded.last_tick, jobs.last_tick)
     where jobs.status not in ('SCHEDULED', 'RUNNING') ${tickGuard}
     returning *`,
    [name, by, tick, tick],
  );
  return rows[0];
}

/** Claims the oldest SCHEDULED job among `names` for this node and records the run; undefined when none. */
export async function claimNext(trx: Knex.Transaction, names: string[], node: string, leaseMs: number): Promise<JobRow | undefined> {
  // Two statements, not `update … where name in (select … limit 1 for update skip locked)`: PostgreSQL may
  // run such a subquery again while updating, and with SKIP LOCKED the second run finds the next job, so one
  // statement could set two jobs RUNNING while only the first is returned and run (the other stayed RUNNING,
  // never run, until its lease expired). The row locked here stays locked until this transaction ends.
  const next = (await trx('jobs')
    .first('name')
    .where('status', 'SCHEDULED')
    .whereIn('name', names)
    .orderBy([{ column: 'scheduled_time' }, { column: 'name' }])
    .forUpdate()
    .skipLocked()) as { name: string } | undefined;
  if (!next) return undefined;
  const [row] = (await trx('jobs')
    .where({ name: next.name, status: 'SCHEDULED' })
    .update({
      status: 'RUNNING',
      started_time: trx.fn.now(),
      finished_time: null,
      node,
      ticket: trx.raw('ticket + 1'),
      runs: trx.raw('runs + 1'),
      lease_expires_at: leaseUntil(trx, leaseMs),
      message: null,
    })
    .returning('*')) as JobRow[];
  if (!row) return undefined;
  await trx('job_runs').insert({
    job_name: row.name,
    ticket: row.ticket,
    tick: row.scheduled_tick,
    node,
    requested_by: row.requested_by,
    scheduled_time: row.scheduled_time,
    started_time: row.started_time,
  });
  return row;
}

/** Extends the lease of a run this node still holds; false when the claim is gone (force-failed, expired). */
export async function renewLease(q: Knex, name: string, ticket: number, leaseMs: number): Promise<boolean> {
  const n = await q('jobs').where({ name, ticket, status: 'RUNNING' }).update({ lease_expires_at: leaseUntil(q, leaseMs) });
  return Number(n) > 0;
}

/** Does this run still hold its claim? Read inside a job's transaction before it writes. */
export async function holdsClaim(q: Knex, name: string, ticket: number): Promise<boolean> {
  return (await q('jobs').where({ name, ticket, status: 'RUNNING' }).first('name')) !== undefined;
}

async function closeRuns(trx: Knex.Transaction, rows: JobRow[], outcome: JobOutcome, message: string | null): Promise<void> {
  for (const r of rows) {
    await trx('job_runs')
      .where({ job_name: r.name, ticket: r.ticket })
      .whereNull('finished_time')
      .update({ finished_time: trx.fn.now(), outcome, message });
  }
}

/** Records a run's outcome if this node still holds the claim; undefined when it lost it meanwhile. */
export async function finishRun(
  trx: Knex.Transaction,
  name: string,
  ticket: number,
  outcome: JobOutcome,
  message: string | null,
): Promise<JobRow | undefined> {
  const [row] = (await trx('jobs')
    .where({ name, ticket, status: 'RUNNING' })
    .update({ status: outcome, finished_time: trx.fn.now(), lease_expires_at: null, message })
    .returning('*')) as JobRow[];
  if (row) await closeRuns(trx, [row], outcome, message);
  return row;
}

/** Sets RUNNING jobs whose node stopped renewing the lease to FAILED; returns them. */
export async function expireLeases(trx: Knex.Transaction): Promise<JobRow[]> {
  const rows = (await trx('jobs')
    .where('status', 'RUNNING')
    .andWhere('lease_expires_at', '<', trx.fn.now())
    .update({
      status: 'FAILED',
      finished_time: trx.fn.now(),
      lease_expires_at: null,
      message: trx.raw("'lease expired: node ' || coalesce(node, 'unknown') || ' stopped renewing its claim (it died or hung)'"),
    })
    .returning('*')) as JobRow[];
  for (const r of rows) await closeRuns(trx, [r], 'FAILED', r.message);
  return rows;
}

/**
 * MaintenanceActionForceFailRunningAndScheduledJobs: the database only; a run that is truly alive notices
 * at its next renewal. Returns the jobs with the status they had before.
 */
export async function forceFailAll(trx: Knex.Transaction, message: string): Promise<(JobRow & { previous_status: JobStatus })[]> {
  const { rows } = await trx.raw<{ rows: (JobRow & { previous_status: JobStatus })[] }>(
    `update jobs j set status = 'FAILED', finished_time = now(), lease_expires_at = null, message = ?
       from (select name, status from jobs where status in ('SCHEDULED', 'RUNNING') for update) old
      where j.name = old.name
      returning j.*, old.status as previous_status`,
    [message],
  );
  await closeRuns(trx, rows, 'FAILED', message);
  return rows;
}

export function findJob(q: Knex, name: string): Promise<JobRow | undefined> {
  return q('jobs').where({ name }).first() as Promise<JobRow | undefined>;
}

/** Sort keys of the job list, whitelisted: API name → column. */
export const JOB_SORT_COLUMNS = {
  name: 'name',
  status: 'status',
  scheduledTime: 'scheduled_time',
  finishedTime: 'finished_time',
} as const;

export type JobSortKey = keyof typeof JOB_SORT_COLUMNS;

/** One page of jobs (filter: case-insensitive substring of the name) and the total of the filter. */
export async function pageOfJobs(
  q: Knex,
  opts: { filter: string; sort: JobSortKey; descending: boolean; startAt: number; maxResults: number },
): Promise<{ total: number; rows: JobRow[] }> {
  const base = () => {
    const b = q('jobs');
    if (opts.filter !== '') b.whereRaw("lower(name) like ? escape '\\'", [`%${opts.filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
    return b;
  };
  const dir = opts.descending ? 'desc' : 'asc';
  const [count, rows] = await Promise.all([
    base().first(q.raw('count(*)::int as n')) as Promise<{ n: number } | undefined>,
    opts.maxResults === 0
      ? Promise.resolve([] as JobRow[])
      : (base()
          .select('*')
          .orderByRaw(`${JOB_SORT_COLUMNS[opts.sort]} ${dir} nulls last, name ${dir}`)
          .offset(opts.startAt)
          .limit(opts.maxResults) as Promise<JobRow[]>),
  ]);
  return { total: Number(count?.n ?? 0), rows };
}
