import type { Knex } from 'knex';
import { POSITION_GAP } from '../../options/options.model.ts';
import { pruneUnknownNames } from '../../../directory/auth-failures.repository.ts';

/**
 * The data tasks of JobRunDataMigrationTasks, in the order they run. Each runs once per database (recorded
 * in `data_migration_tasks`, like schema migrations) in one transaction with its record. A new task is
 * added at the end with a new dated name; a task is never renamed, or it would run again.
 */
export interface DataTask {
  name: string;
  /** Returns how many rows it changed. */
  run(trx: Knex.Transaction): Promise<number>;
}

const countOf = async (trx: Knex.Transaction, sql: string, bindings: readonly unknown[] = []) => {
  const { rows } = await trx.raw<{ rows: { n: number }[] }>(`with changed as (${sql} returning 1) select count(*)::int as n from changed`, bindings as never);
  return Number(rows[0]?.n ?? 0);
};

export const DATA_TASKS: readonly DataTask[] = [
  {
    // Positions become rank × gap again in every sibling list (ties and crowded gaps resolved by id); the
    // lists' versions are raised so no node keeps serving a cached order.
    name: '20261123-repair-option-order',
    async run(trx) {
      const changed = await countOf(
        trx,
        `with ranked as (
           select id, context_id, coalesce(parent_id, 0) as parent_key,
                  (row_number() over (partition by context_id, coalesce(parent_id, 0) order by position, id) - 1) * ? as want
             from field_options)
         update field_options o set position = r.want from ranked r where o.id = r.id and o.position <> r.want`,
        [POSITION_GAP],
      );
      await trx.raw('update field_option_lists set version = version + 1');
      return changed;
    },
  },
  {
    // Grants of users or groups that no longer exist, grants on a context of another field, and default
    // rows naming an option of another context: none of them can be used or shown correctly.
    name: '20261123-remove-dangling-grants-and-defaults',
    async run(trx) {
      const grants = await countOf(
        trx,
        `delete from field_grants g
          where (g.principal_type = 'user' and not exists (select 1 from users u where u.name_key = g.principal_key))
             or (g.principal_type = 'group' and not exists (select 1 from groups gr where gr.name_key = g.principal_key))
             or (g.context_id is not null and not exists (select 1 from field_contexts c where c.id = g.context_id and c.field_id = g.field_id))`,
      );
      const defaults = await countOf(
        trx,
        `delete from field_default_options d
          where not exists (select 1 from field_options o where o.id = d.option_id and o.context_id = d.context_id)`,
      );
      return grants + defaults;
    },
  },
  {
    // Counters of names no account has, which are not locked (a locked name stays locked: a lock must not
    // reveal whether the name exists).
    name: '20261123-remove-unknown-auth-failures',
    run: (trx) => pruneUnknownNames(trx),
  },
];
