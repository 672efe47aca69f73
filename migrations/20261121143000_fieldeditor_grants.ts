import type { Knex } from 'knex';

/**
 * Field-editor grants: who may use the user endpoints of a field, globally or for one context.
 * Grants name their principal (not a foreign key) so that a grant of a since-deleted user can still be shown
 * with `exists: false`; the user-deleted event removes a deleted user's grants.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('field_grants', (t) => {
    t.comment('Field-editor permissions of users and groups on a custom field, global or per context');
    t.increments('id').comment('Surrogate key');
    t.integer('field_id').notNullable().references('custom_fields.id').onDelete('CASCADE').comment('The custom field');
    t.integer('context_id').nullable().references('field_contexts.id').onDelete('CASCADE')
      .comment('The context the grant is limited to; null = global grant on the field (all contexts)');
    t.string('principal_type', 8).notNullable().comment("'user' or 'group'");
    t.string('principal_name', 255).notNullable().comment('User or group name as given by the administrator');
    t.string('principal_key', 255).notNullable().comment('lower(principal_name): matching key');
  });
  await knex.raw(
    "alter table field_grants add constraint field_grants_principal_type_check check (principal_type in ('user', 'group'))",
  );
  // One row per (field, context-or-global, principal); coalesce makes the global grant (null context) unique too.
  await knex.raw(
    'create unique index field_grants_unique on field_grants (field_id, coalesce(context_id, 0), principal_type, principal_key)',
  );
  // "Which fields may this user (or these groups) edit" is the hot query of U1 and of every permission check.
  await knex.raw('create index field_grants_principal on field_grants (principal_type, principal_key)');
  await knex.raw('create index field_grants_context on field_grants (context_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('field_grants');
}
