import type { JobDefinition } from '../../../platform/jobs/job-types.ts';
import { pruneStaleFailures } from '../../../directory/auth-failures.repository.ts';
import type { EventLog } from '../event-log.ts';
import { deleteEvents } from '../event-log.repository.ts';
import { readTruncateSchedule } from '../truncate-schedule.repository.ts';
import { JOB } from './job-names.ts';

const DAY_MS = 86_400_000;

/**
 * JobTruncateEventLog: deletes entries older than the M3 schedule's `olderThanDays`. Scheduled on every
 * tick while the schedule is enabled (once per tick across the cluster); may also be requested through M2.
 * The deletion and its own entry commit together.
 */
export function truncateEventLogJob(eventLog: EventLog): JobDefinition {
  return {
    name: JOB.truncateEventLog,
    schedule: { enabled: async (knex) => (await readTruncateSchedule(knex)).enabled },
    async run(ctx) {
      const deleted = await ctx.transaction(async (trx) => {
        const { olderThanDays } = await readTruncateSchedule(trx);
        const before = new Date(Date.now() - olderThanDays * DAY_MS);
        const n = await deleteEvents(trx, before);
        await eventLog.deleted(trx, before);
        await eventLog.record(trx, {
          actor: 'system',
          kind: 'event_log.truncated',
          target: { type: 'event_log' },
          after: { deleted: n, olderThanDays, before: before.toISOString() },
        });
        return n;
      });
      return `deleted ${deleted} event log entries`;
    },
  };
}

/**
 * JobPruneAuthFailures: deletes failed-login counters that no longer matter (unlocked and older than
 * AUTH_FAILURES_RETENTION_HOURS, or whose lock expired). Scheduled on every tick, once across the cluster.
 */
export function pruneAuthFailuresJob(opts: { retentionHours: number; lockoutMinutes: number }): JobDefinition {
  return {
    name: JOB.pruneAuthFailures,
    schedule: { enabled: async () => true },
    async run(ctx) {
      const n = await ctx.transaction((trx) => pruneStaleFailures(trx, opts));
      return `pruned ${n} failed-login counters`;
    },
  };
}
