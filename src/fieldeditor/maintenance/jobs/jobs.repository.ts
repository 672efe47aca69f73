import type { Knex } from 'knex';
import { countChanged as countOf } from '../../../platform/db/count-changed.ts';

/** The SQL of the maintenance jobs (JobRunDataMigrationTasks and its data tasks, JobIndexCustomFieldSearchTable). */

/**
 * Records that the task runs on this database; false when it is recorded already (it ran, or a concurrent
 * run holds the record: the insert is the first statement, so that run would wait here).
 */
export async function claimDataTask(trx: Knex.Transaction, name: string): Promise<boolean> {
  const inserted = await trx('data_migration_tasks').insert({ name }).onConflict('name').ignore().returning('name');
  return inserted.length > 0;
}

/** Stores how many rows the task changed, on its record. */
export async function recordDataTaskChanges(trx: Knex.Transaction, name: string, changed: number): Promise<void> {
  await trx('data_migration_tasks').where({ name }).update({ changed });
}

/** Positions become rank × `gap` in every sibling list (ties by id); every list's version is raised. */
export async function repairOptionOrder(trx: Knex.Transaction, gap: number): Promise<number> {
  const changed = await countOf(
    trx,
    `with ranked as (
       select id, context_id, coalesce(parent_id, 0) as parent_key,
              (row_number() over (partition by context_id, coalesce(parent_id, 0) order by position, id) - 1) * ? as want
         from field_options)
     update field_options o set position = r.want from ranked r where o.id = r.id and o.position <> r.want`,
    [gap],
  );
  await trx.raw('update field_option_lists set version = version + 1');
  return changed;
}

/** Deletes default rows naming an option of another context; answers how many. */
export function removeDanglingDefaults(trx: Knex.Transaction): Promise<number> {
  return countOf(
    trx,
    `delete from field_default_options d
      where not exists (select 1 from field_options o where o.id = d.option_id and o.context_id = d.context_id)`,
  );
}

/** Rebuilds `field_search` from `custom_fields`; answers how many fields it indexed. */
export async function rebuildSearchIndex(trx: Knex.Transaction): Promise<number> {
  await trx.raw('delete from field_search');
  const { rows } = await trx.raw<{ rows: { n: number }[] }>(
    `with added as (insert into field_search (field_id, name_key) select id, name_key from custom_fields returning 1)
     select count(*)::int as n from added`,
  );
  return Number(rows[0]?.n ?? 0);
}
