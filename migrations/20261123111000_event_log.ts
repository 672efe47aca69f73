import type { Knex } from 'knex';

/**
 * The field editor's event log (issue 11): one row per change made through the field editor and per host
 * event it reacted to, written in the transaction of the change. No foreign keys: an entry outlives the
 * field, context, option or user it names.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('event_log', (t) => {
    t.comment('Field-editor event log: changes made through the field editor and host events it reacted to');
    t.bigIncrements('id').comment('Entry id; grows with time, the tie-breaker of the newest-first order');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When the change committed (transaction time)');
    t.string('actor', 255).notNullable().comment("User name of who made the change, or 'system' for jobs and host events");
    t.string('actor_key', 255).notNullable().comment('lower(actor): the filter key');
    t.string('kind', 64).notNullable().comment('What happened, e.g. option.created, grant.granted, job.finished (docs/maintenance.md)');
    t.integer('field_id').nullable().comment('The custom field concerned, if any (no FK: kept after the field is gone)');
    t.integer('context_id').nullable().comment('The context concerned, if any');
    t.jsonb('target').notNullable().comment('What the change was applied to, e.g. {"type":"option","id":10001}');
    t.jsonb('before').nullable().comment('State before the change, where it applies');
    t.jsonb('after').nullable().comment('State after the change, where it applies');
  });
  await knex.raw('create index event_log_newest on event_log (created_at desc, id desc)');
  await knex.raw('create index event_log_kind on event_log (kind, created_at desc, id desc)');
  await knex.raw('create index event_log_actor on event_log (actor_key, created_at desc, id desc)');
  await knex.raw('create index event_log_field on event_log (field_id, created_at desc, id desc) where field_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('event_log');
}
