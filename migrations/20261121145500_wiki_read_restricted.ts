import type { Knex } from 'knex';

/**
 * Remembers that a read restriction was set, independently of its rows. Restriction rows cascade away with
 * a deleted user or group; without this flag, deleting the last allowed user would silently lift the
 * restriction and expose the page to every reader of the space. With it, the page stays restricted (to
 * whoever is left, possibly nobody) until someone lifts the restriction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contents', (t) => {
    t.boolean('read_restricted')
      .notNullable()
      .defaultTo(false)
      .comment('True while a read restriction is set (even if all its users and groups were deleted since)');
  });
  await knex.raw('update contents set read_restricted = true where id in (select content_id from content_read_restrictions)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contents', (t) => {
    t.dropColumn('read_restricted');
  });
}
