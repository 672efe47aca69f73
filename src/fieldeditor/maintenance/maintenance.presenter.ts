import type { JobRow } from '../../platform/jobs/job-types.ts';
import type { TruncateSchedule } from './truncate-schedule.repository.ts';

const two = (n: number) => String(n).padStart(2, '0');

/** The job entry's documented time format, `YYYY-MM-dd'T'HH:mm:ss+0000` in UTC, or null. */
export function jobTime(d: Date | null): string | null {
  if (!d) return null;
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}+0000`;
}

/** M1 entry: the documented members first, then ours (`startedTime`, `node`, `message`, `runs`). */
export function jobEntry(j: JobRow) {
  return {
    name: j.name,
    status: j.status,
    scheduledTime: jobTime(j.scheduled_time),
    finishedTime: jobTime(j.finished_time),
    startedTime: jobTime(j.started_time),
    node: j.node,
    message: j.message,
    runs: j.runs,
  };
}

// An event-log entry's API form is built by the database: ENTRY_JSON in event-log.repository.ts.

export const scheduleBody = (s: TruncateSchedule) => ({ enabled: s.enabled, olderThanDays: s.olderThanDays });
