import type { Knex } from 'knex';

/**
 * Issue 31: bringing data across from a wiki (space export or live REST) and a live tracker. Each imported
 * record is remembered by the source's id, so a re-run finds it (its id may have been mapped to another one
 * where the source's was taken here) and can tell from the fingerprint whether it changed since.
 * Pages also get the position among their siblings that the wiki keeps.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('migration_records', (t) => {
    t.comment('Records brought across by import-from: the source id, our id, and a fingerprint of what was imported');
    t.bigIncrements('id').comment('Surrogate key');
    t.string('source', 512).notNullable().comment("Where it came from: 'wiki' or 'tracker', or the base URL of a live source (no credentials)");
    t.string('kind', 32).notNullable().comment('space | content | user | group | field | context | option | grant | default');
    t.string('source_id', 255).notNullable().comment("The source's id or key of the record");
    t.string('local_id', 255).notNullable().comment('Our id or key of the same record (equal to source_id unless it was taken)');
    t.string('fingerprint', 64).notNullable().comment('hex SHA-256 of the imported state; a re-run skips records whose fingerprint did not change');
    t.timestamp('imported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When it was last imported');
    t.unique(['source', 'kind', 'source_id']);
    t.index(['kind', 'local_id']);
  });
  await knex.schema.alterTable('contents', (t) => {
    t.integer('position').nullable().comment("Order among the parent's child pages as the source wiki kept it (null: by id)");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contents', (t) => t.dropColumn('position'));
  await knex.schema.dropTableIfExists('migration_records');
}
