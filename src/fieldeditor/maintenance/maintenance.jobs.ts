import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import type { EventLog } from './event-log.ts';
import { eventLogJournal } from './job-journal.ts';
import { searchIndexJob } from './jobs/search-index.job.ts';
import { dataMigrationJob } from './jobs/data-migration.job.ts';
import { pruneAuthFailuresJob, truncateEventLogJob } from './jobs/housekeeping.jobs.ts';

/** Registers the field editor's jobs with the node's runner and records job changes in the event log. */
export function registerMaintenanceJobs(
  runner: JobRunner,
  deps: { eventLog: EventLog; authFailuresRetentionHours: number; lockoutMinutes: number },
): void {
  runner.register(searchIndexJob);
  runner.register(dataMigrationJob());
  runner.register(truncateEventLogJob(deps.eventLog));
  runner.register(pruneAuthFailuresJob({ retentionHours: deps.authFailuresRetentionHours, lockoutMinutes: deps.lockoutMinutes }));
  runner.useJournal(eventLogJournal(deps.eventLog));
}
