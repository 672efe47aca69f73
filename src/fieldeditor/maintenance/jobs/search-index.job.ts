import type { JobDefinition } from '../../../platform/jobs/job-types.ts';
import { JOB } from './job-names.ts';
import { rebuildSearchIndex } from './jobs.repository.ts';

/**
 * JobIndexCustomFieldSearchTable: rebuilds `field_search` (the table behind A1's and U1's `filter`) from
 * `custom_fields` in one transaction. A trigger keeps the table current on every field write; the job
 * repairs it after anything that bypassed the trigger (a restore, a manual edit).
 */
export const searchIndexJob: JobDefinition = {
  name: JOB.indexSearchTable,
  async run(ctx) {
    const n = await ctx.transaction((trx) => rebuildSearchIndex(trx));
    return `indexed ${n} custom fields`;
  },
};
