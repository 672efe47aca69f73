import type { JobJournal, JobRow } from '../../platform/jobs/job-types.ts';
import type { EventLog } from './event-log.ts';

const target = (job: JobRow) => ({ type: 'job', name: job.name });

/**
 * The job runner's journal: every job scheduled, every outcome and every force-fail becomes an event-log
 * entry in the transaction that changes the job's row.
 */
export function eventLogJournal(eventLog: EventLog): JobJournal {
  return {
    scheduled: (trx, job, by) =>
      eventLog.record(trx, {
        actor: by,
        kind: 'job.scheduled',
        target: target(job),
        after: { status: job.status, scheduledTick: job.scheduled_tick },
      }),
    finished: (trx, job, outcome, message) =>
      eventLog.record(trx, {
        actor: 'system',
        kind: 'job.finished',
        target: target(job),
        before: { status: 'RUNNING', node: job.node },
        after: { status: outcome, message },
      }),
    forceFailed: (trx, jobs, by) =>
      eventLog.record(trx, {
        actor: by,
        kind: 'jobs.force_failed',
        target: { type: 'jobs', names: jobs.map((j) => j.name) },
        before: jobs.map((j) => ({ name: j.name, status: j.previous_status })),
        after: { status: 'FAILED' },
      }),
  };
}
