import type { JobDefinition } from '../../platform/jobs/job-types.ts';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { FIELD_OPTIONS_TOPIC } from '../shared/fieldeditor.topics.ts';
import type { EventLog } from './event-log.ts';
import { searchIndexJob } from './jobs/search-index.job.ts';
import { dataMigrationJob } from './jobs/data-migration.job.ts';
import { pruneAuthFailuresJob, truncateEventLogJob } from './jobs/housekeeping.jobs.ts';

/**
 * A job that rewrites data the read caches hold announces the caches' topics when it ends (also after a
 * failure: a data task may have committed before a later one failed), like every other write, so no node
 * keeps answering from what the job replaced: A1 and U1 pages after the search table is rebuilt; grants,
 * option order and defaults after the data tasks.
 */
function announcing(job: JobDefinition, changes: ChangeFeed, topics: readonly string[]): JobDefinition {
  return {
    ...job,
    async run(ctx) {
      try {
        return await job.run(ctx);
      } finally {
        for (const topic of topics) await changes.publish(topic);
      }
    },
  };
}

/** The field editor's jobs, for the node's runner (the feature's `jobs`). */
export function maintenanceJobs(deps: {
  eventLog: EventLog;
  changes: ChangeFeed;
  authFailuresRetentionHours: number;
  lockoutMinutes: number;
}): JobDefinition[] {
  return [
    announcing(searchIndexJob, deps.changes, [TRACKER_TOPIC]),
    announcing(dataMigrationJob(), deps.changes, [TRACKER_TOPIC, FIELD_OPTIONS_TOPIC]),
    truncateEventLogJob(deps.eventLog),
    pruneAuthFailuresJob({ retentionHours: deps.authFailuresRetentionHours, lockoutMinutes: deps.lockoutMinutes }),
  ];
}
