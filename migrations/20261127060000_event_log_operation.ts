import type { Knex } from 'knex';

/**
 * Issue 27: a batch or a sync writes one event-log entry per changed option; the entries of one request share
 * an operation id, so the log can show them as one change (and be filtered by it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('event_log', (t) => {
    t.uuid('operation_id').nullable().comment('Shared by the entries one request wrote together (a batch or a sync); null for single changes');
  });
  await knex.raw('create index event_log_operation on event_log (operation_id) where operation_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists event_log_operation');
  await knex.schema.alterTable('event_log', (t) => {
    t.dropColumn('operation_id');
  });
}
