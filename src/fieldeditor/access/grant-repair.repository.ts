import type { Knex } from 'knex';
import { countChanged } from '../../platform/db/count-changed.ts';

/*
 * The repair of the grants table for the maintenance job's data task (maintenance/jobs/data-tasks.ts). The grants
 * belong to this room and grants/ (docs/architecture.md, "Rooms and tables"; a lint rule keeps their name out of
 * every other folder), so the task reaches them through this export, which every room may import.
 */

/** Deletes grants of missing users or groups and grants on a context of another field; answers how many. */
export function removeDanglingGrants(trx: Knex.Transaction): Promise<number> {
  return countChanged(
    trx,
    `delete from field_grants g
      where (g.principal_type = 'user' and not exists (select 1 from users u where u.name_key = g.principal_key))
         or (g.principal_type = 'group' and not exists (select 1 from groups gr where gr.name_key = g.principal_key))
         or (g.context_id is not null and not exists (select 1 from field_contexts c where c.id = g.context_id and c.field_id = g.field_id))`,
  );
}
