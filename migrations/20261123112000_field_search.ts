import type { Knex } from 'knex';

/**
 * The search table of A1's and U1's `filter`: one row per custom field with its lower-cased name, kept
 * current by a trigger on every field write and rebuilt by the job JobIndexCustomFieldSearchTable.
 * Substring search uses a pg_trgm GIN index where the extension is available (PostgreSQL), and a plain
 * scan of this narrow table where it is not (embedded PGlite).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('field_search', (t) => {
    t.comment('Search table of the field editor filter: lower-cased custom field names');
    t.integer('field_id').primary().references('custom_fields.id').onDelete('CASCADE').comment('The custom field');
    t.string('name_key', 255).notNullable().comment('custom_fields.name_key (the lower-cased name), searched by substring');
  });
  await knex.raw('savepoint field_search_trgm');
  try {
    await knex.raw('create extension if not exists pg_trgm');
    await knex.raw('create index field_search_name_trgm on field_search using gin (name_key gin_trgm_ops)');
    await knex.raw('release savepoint field_search_trgm');
  } catch {
    // No pg_trgm here (PGlite, or no right to create it): a btree still serves prefix and equality lookups.
    await knex.raw('rollback to savepoint field_search_trgm');
    await knex.raw('create index field_search_name on field_search (name_key)');
  }
  await knex.raw(`
    create function field_search_sync() returns trigger language plpgsql as $$
    begin
      insert into field_search (field_id, name_key) values (new.id, new.name_key)
        on conflict (field_id) do update set name_key = excluded.name_key;
      return null;
    end $$`);
  await knex.raw(`create trigger custom_fields_search after insert or update of name_key on custom_fields
    for each row execute function field_search_sync()`);
  await knex.raw('insert into field_search (field_id, name_key) select id, name_key from custom_fields');
  await knex.schema.createTable('data_migration_tasks', (t) => {
    t.comment('Data tasks of JobRunDataMigrationTasks that ran, recorded like schema migrations');
    t.string('name', 100).primary().comment('Task name, e.g. 20261123-repair-option-order');
    t.timestamp('ran_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When it ran');
    t.integer('changed').notNullable().defaultTo(0).comment('How many rows it changed');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('data_migration_tasks');
  await knex.raw('drop trigger if exists custom_fields_search on custom_fields');
  await knex.raw('drop function if exists field_search_sync()');
  await knex.schema.dropTableIfExists('field_search');
}
