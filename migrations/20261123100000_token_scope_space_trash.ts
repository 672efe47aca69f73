import type { Knex } from 'knex';

/**
 * Read-only personal access tokens, and spaces that can be deleted: a deleted space goes to the trash with its
 * content (so downloads answer as for trashed content) and frees its key for a new space.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('access_tokens', (t) => {
    t.string('scope', 8)
      .notNullable()
      .defaultTo('write')
      .comment('write: any method; read: GET and HEAD only (other methods answer 403)');
  });
  await knex.raw(`alter table access_tokens add constraint access_tokens_scope check (scope in ('read', 'write'))`);

  await knex.schema.alterTable('spaces', (t) => {
    t.string('status', 16).notNullable().defaultTo('current').comment('current | trashed (deleted by DELETE /rest/api/space/{key})');
    t.timestamp('trashed_at', { useTz: true }).nullable().comment('When the space was deleted; null while current');
  });
  // Keys stay unique among current spaces only, so a deleted space's key can be used again.
  await knex.raw('alter table spaces drop constraint spaces_key_unique');
  await knex.raw(`create unique index spaces_current_key_unique on spaces (key) where status = 'current'`);
  await knex.raw(`create unique index spaces_current_lower_key_unique on spaces (lower(key)) where status = 'current'`);
  await knex.raw(`comment on index spaces_current_key_unique is 'Space keys are unique among current spaces'`);
  await knex.raw(`comment on index spaces_current_lower_key_unique is 'Without regard to case, as POST /rest/api/space checks'`);
  await knex.raw(
    `comment on column space_permissions.operation is 'read | create | administer (administer: target space only; manages the space''s permissions and may delete it)'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index spaces_current_lower_key_unique');
  await knex.raw('drop index spaces_current_key_unique');
  await knex('spaces').where({ status: 'trashed' }).del();
  await knex.raw('alter table spaces add constraint spaces_key_unique unique (key)');
  await knex.schema.alterTable('spaces', (t) => {
    t.dropColumn('trashed_at');
    t.dropColumn('status');
  });
  await knex.raw('alter table access_tokens drop constraint access_tokens_scope');
  await knex.schema.alterTable('access_tokens', (t) => {
    t.dropColumn('scope');
  });
}
