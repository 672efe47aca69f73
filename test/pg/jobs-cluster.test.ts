import { describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ServerProcess } from '../helpers/server-process.ts';
import { CHEAP_HASHES, INLINE_DELIVERY, useServerCluster } from '../helpers/server-cluster.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ADMIN = { Authorization: `Basic ${Buffer.from('admin:cluster-admin').toString('base64')}` };
const M = '/rest/trackercustomfieldeditorplugin/1/maintenance';
const SEARCH = 'JobIndexCustomFieldSearchTable';
/**
 * What every node of both clusters below runs with: ADMIN's password, no demo data, jobs polled every 100 ms;
 * neither hashes nor webhook deliveries are what these tests are about.
 */
const NODE_BASE_ENV = { ADMIN_PASSWORD: 'cluster-admin', DEMO: '0', JOBS_POLL_MS: '100', ...CHEAP_HASHES, ...INLINE_DELIVERY };

interface JobEntry {
  name: string;
  status: string;
  node: string | null;
  message: string | null;
  runs: number;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

async function operate(node: ServerProcess, name: string): Promise<{ status: number; body: JobEntry }> {
  const res = await fetch(`${node.url}${M}/operations`, {
    method: 'POST',
    headers: { ...ADMIN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return { status: res.status, body: (await res.json()) as JobEntry };
}

async function job(node: ServerProcess, name: string): Promise<JobEntry | undefined> {
  const res = await fetch(`${node.url}${M}/jobs?filter=${name}`, { headers: ADMIN });
  expect(res.status).toBe(200);
  return ((await res.json()) as { values: JobEntry[] }).values.find((j) => j.name === name);
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ended = (node: ServerProcess, name: string, runs: number) =>
  until(`${name} run ${runs} to end`, async () => {
    const j = await job(node, name);
    return j && j.runs >= runs && (j.status === 'SUCCESS' || j.status === 'FAILED') ? j : undefined;
  });

describe.skipIf(!onPostgres)('jobs on three server processes sharing one PostgreSQL', () => {
  const cluster = useServerCluster({
    prefix: 'jobs',
    // A run holds its claim 2.5 s before working, longer than the 1.5 s lease: runs only survive by renewing.
    // The hold is a test knob, no setting (src/platform/test-knobs.ts): these are real server processes.
    env: { ...NODE_BASE_ENV, JOBS_LEASE_MS: '1500', JOBS_TICK_MS: '3600000', ADDON_PAIR_TEST_JOB_HOLD_MS: '2500' },
    nodes: [{}, {}, {}],
    start: 'together',
  });
  // The nodes still running: a test that kills or stops one takes it out.
  let nodes: ServerProcess[] = [...cluster.nodes];

  it('runs a job requested on all three nodes at once exactly once, renewing its lease', async () => {
    const answers = await Promise.all(nodes.map((n) => operate(n, SEARCH)));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.name).toBe(SEARCH);
      expect(['SCHEDULED', 'RUNNING']).toContain(a.body.status);
    }
    const done = await ended(nodes[0]!, SEARCH, 1);
    expect(done).toMatchObject({ status: 'SUCCESS', runs: 1 });
    const runs = await query<{ n: number }>(cluster.databaseUrl, 'select count(*)::int as n from job_runs where job_name = $1', [SEARCH]);
    expect(runs[0]!.n).toBe(1);
    const scheduled = await query<{ n: number }>(cluster.databaseUrl, "select count(*)::int as n from event_log where kind = 'job.scheduled' and target->>'name' = $1", [SEARCH]);
    expect(scheduled[0]!.n).toBe(1);
  });

  it('ignores a request while the job runs', async () => {
    await operate(nodes[0]!, SEARCH);
    await until('the run to start', async () => (await job(nodes[1]!, SEARCH))?.status === 'RUNNING');
    const again = await operate(nodes[1]!, SEARCH);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'RUNNING', runs: 2 });
    const done = await ended(nodes[2]!, SEARCH, 2);
    expect(done).toMatchObject({ status: 'SUCCESS', runs: 2 });
    await new Promise((r) => setTimeout(r, 500));
    expect((await job(nodes[2]!, SEARCH))!.runs).toBe(2);
  });

  it('force-fails scheduled and running jobs in the database; the live run does not overwrite it', async () => {
    await operate(nodes[0]!, SEARCH);
    await until('the run to start', async () => (await job(nodes[0]!, SEARCH))?.status === 'RUNNING');
    const res = await operate(nodes[1]!, 'MaintenanceActionForceFailRunningAndScheduledJobs');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await job(nodes[2]!, SEARCH)).toMatchObject({ status: 'FAILED', message: 'force-failed by admin' });
    // Past the hold: the interrupted node noticed at its renewal and recorded nothing over the force-fail.
    await new Promise((r) => setTimeout(r, 3500));
    expect(await job(nodes[2]!, SEARCH)).toMatchObject({ status: 'FAILED', message: 'force-failed by admin', runs: 3 });
    const run = await query<{ outcome: string }>(cluster.databaseUrl, 'select outcome from job_runs where job_name = $1 order by ticket desc limit 1', [SEARCH]);
    expect(run[0]!.outcome).toBe('FAILED');
  });

  it('leaves a job FAILED after the lease when its node is killed, and a new request runs it', async () => {
    await operate(nodes[2]!, SEARCH);
    const running = await until('the run to start', async () => {
      const j = await job(nodes[2]!, SEARCH);
      return j?.status === 'RUNNING' ? j : undefined;
    });
    const pid = Number(running.node!.split(':')[1]);
    const victim = nodes.find((n) => n.child.pid === pid)!;
    expect(victim).toBeDefined();
    victim.child.kill('SIGKILL');
    nodes = nodes.filter((n) => n !== victim);
    const failed = await until('the lease to expire', async () => {
      const j = await job(nodes[0]!, SEARCH);
      return j?.status === 'FAILED' ? j : undefined;
    });
    expect(failed.message).toMatch(/^lease expired: node .+ stopped renewing its claim/);
    const again = await operate(nodes[0]!, SEARCH);
    expect(again.body.status).toBe('SCHEDULED');
    expect(await ended(nodes[1]!, SEARCH, 5)).toMatchObject({ status: 'SUCCESS' });
  });

  it('stops cleanly on SIGTERM: the run it held ends FAILED at once, without waiting for the lease', async () => {
    await operate(nodes[0]!, SEARCH);
    const running = await until('the run to start', async () => {
      const j = await job(nodes[0]!, SEARCH);
      return j?.status === 'RUNNING' ? j : undefined;
    });
    const pid = Number(running.node!.split(':')[1]);
    const node = nodes.find((n) => n.child.pid === pid)!;
    expect(await node.stop()).toBe(0);
    nodes = nodes.filter((n) => n !== node);
    expect(await job(nodes[0]!, SEARCH)).toMatchObject({ status: 'FAILED', message: 'interrupted: the node is shutting down' });
  });
});

describe.skipIf(!onPostgres)('scheduled jobs on three server processes', () => {
  const cluster = useServerCluster({
    prefix: 'jobs',
    // Half-second ticks: the test polls until three of them have run, rather than sleeping through them.
    env: { ...NODE_BASE_ENV, JOBS_LEASE_MS: '3000', JOBS_TICK_MS: '500' },
    nodes: [{}, {}, {}],
    start: 'together',
  });
  const nodes = cluster.nodes;

  /** The truncation's runs and journal, read in one snapshot, and whether the job was idle in it. */
  async function truncationRecord() {
    const c = new pg.Client({ connectionString: cluster.databaseUrl });
    await c.connect();
    try {
      // One snapshot: in it an idle job has every run it was scheduled for claimed, finished and journalled
      // (each step commits its state change with its journal entry), however the timers go on afterwards.
      await c.query('begin transaction isolation level repeatable read read only');
      const job = await c.query<{ status: string }>("select status from jobs where name = 'JobTruncateEventLog'");
      const runs = await c.query<{ tick: number; node: string }>("select tick::float8 as tick, node from job_runs where job_name = 'JobTruncateEventLog' order by tick");
      const entries = await c.query<{ kind: string; n: number }>(
        "select kind, count(*)::int as n from event_log where kind in ('job.scheduled', 'job.finished') and target->>'name' = 'JobTruncateEventLog' group by kind",
      );
      const finished = await c.query<{ n: number }>("select count(*)::int as n from job_runs where job_name = 'JobTruncateEventLog' and outcome = 'SUCCESS'");
      const truncations = await c.query<{ n: number }>("select count(*)::int as n from event_log where kind = 'event_log.truncated'");
      await c.query('commit');
      const status = job.rows[0]?.status;
      return {
        idle: status !== undefined && status !== 'SCHEDULED' && status !== 'RUNNING',
        runs: runs.rows,
        byKind: Object.fromEntries(entries.rows.map((e) => [e.kind, e.n])),
        finished: finished.rows[0]!.n,
        truncations: truncations.rows[0]!.n,
      };
    } finally {
      await c.end();
    }
  }

  it('runs the event-log truncation once per tick across the cluster', async () => {
    const put = await fetch(`${nodes[0]!.url}${M}/event_log_entries/truncate_schedule`, {
      method: 'PUT',
      headers: { ...ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ enabled: true, olderThanDays: 30 }),
    });
    expect(put.status).toBe(200);
    await until('three ticks to run', async () => (await truncationRecord()).runs.length >= 3);
    const off = await fetch(`${nodes[1]!.url}${M}/event_log_entries/truncate_schedule`, {
      method: 'PUT',
      headers: { ...ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ enabled: false, olderThanDays: 30 }),
    });
    expect(off.status).toBe(200);
    // Schedule off, and the counts read in a snapshot where the last run has finished, so they agree.
    const record = await until('the last run to finish', async () => {
      const r = await truncationRecord();
      return r.idle ? r : undefined;
    });
    const { runs, byKind } = record;
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(new Set(runs.map((r) => r.tick)).size).toBe(runs.length);
    // Every node's timer saw every tick, yet each tick was scheduled, run and recorded once.
    expect(byKind['job.scheduled']).toBe(runs.length);
    expect(record.truncations).toBe(record.finished);
    expect(byKind['job.finished']).toBe(record.finished);
  });
});
