import type { Knex } from 'knex';

/**
 * Issue 31: a space keeps its home page, as the wiki it was brought from had it (space exports and the live
 * wiki's `homepage`), and answers it under `GET /rest/api/space/{key}?expand=homepage`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('spaces', (t) => {
    t.bigInteger('home_page_id').nullable().references('contents.id').onDelete('SET NULL')
      .comment("The space's home page (null: none; spaces created here have none)");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('spaces', (t) => t.dropColumn('home_page_id'));
}
