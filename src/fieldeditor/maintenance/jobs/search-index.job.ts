import type { JobDefinition } from '../../../platform/jobs/job-types.ts';
import { JOB } from './job-names.ts';

/**
 * JobIndexCustomFieldSearchTable: rebuilds `field_search` (the table behind A1's and U1's `filter`) from
 * `custom_fields` in one transaction. A trigger keeps the table current on every field write; the job
 * repairs it after anything that bypassed the trigger (a restore, a manual edit).
 */
export const searchIndexJob: JobDefinition = {
  name: JOB.indexSearchTable,
  async run(ctx) {
    const n = await ctx.transaction(async (trx) => {
      await trx.raw('delete from field_search');
      const { rows } = await trx.raw<{ rows: { n: number }[] }>(
        `with added as (insert into field_search (field_id, name_key) select id, name_key from custom_fields returning 1)
         select count(*)::int as n from added`,
      );
      return Number(rows[0]?.n ?? 0);
    });
    return `indexed ${n} custom fields`;
  },
};
