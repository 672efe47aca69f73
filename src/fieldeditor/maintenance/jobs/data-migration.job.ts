import type { JobDefinition } from '../../../platform/jobs/job-types.ts';
import { DATA_TASKS, type DataTask } from './data-tasks.ts';
import { JOB } from './job-names.ts';
import { claimDataTask, recordDataTaskChanges } from './jobs.repository.ts';

/** JobRunDataMigrationTasks: runs every registered data task that has not run on this database yet. */
export function dataMigrationJob(tasks: readonly DataTask[] = DATA_TASKS): JobDefinition {
  return {
    name: JOB.runDataMigrationTasks,
    async run(ctx) {
      const ran: string[] = [];
      for (const task of tasks) {
        ctx.signal.throwIfAborted();
        const done = await ctx.transaction(async (trx) => {
          // The record is inserted first: a concurrent run (which the runner prevents anyway) would wait here.
          if (!(await claimDataTask(trx, task.name))) return false;
          const changed = await task.run(trx);
          await recordDataTaskChanges(trx, task.name, changed);
          return true;
        });
        if (done) ran.push(task.name);
      }
      return ran.length === 0 ? 'no pending data tasks' : `ran ${ran.join(', ')}`;
    },
  };
}
