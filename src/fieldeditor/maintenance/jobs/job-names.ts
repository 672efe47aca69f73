/** Names accepted by M2 (`POST …/maintenance/operations`): jobs are scheduled, actions run at once. */
export const JOB = {
  indexSearchTable: 'JobIndexCustomFieldSearchTable',
  runDataMigrationTasks: 'JobRunDataMigrationTasks',
  truncateEventLog: 'JobTruncateEventLog',
  pruneAuthFailures: 'JobPruneAuthFailures',
} as const;

export const ACTION = {
  forceFail: 'MaintenanceActionForceFailRunningAndScheduledJobs',
  deleteEventsOlderThanOneMonth: 'MaintenanceActionDeleteEventLogEntriesOlderThanOneMonth',
  deleteAllEvents: 'MaintenanceActionDeleteAllEventLogEntries',
} as const;

export const JOB_NAMES: readonly string[] = Object.values(JOB);
export const ACTION_NAMES: readonly string[] = Object.values(ACTION);
export const OPERATION_NAMES: readonly string[] = [...JOB_NAMES, ...ACTION_NAMES];
