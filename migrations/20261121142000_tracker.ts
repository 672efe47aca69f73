import type { Knex } from 'knex';

/** Tracker host: projects, issue types, custom fields and their contexts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.comment('Tracker projects');
    t.increments('id').comment('Project id');
    t.string('key', 32).notNullable().unique().comment('Project key (upper-case letters and digits, e.g. DEMO)');
    t.string('name', 255).notNullable().comment('Display name');
    t.text('description').notNullable().defaultTo('').comment('Description');
    t.string('project_type_key', 64).notNullable().defaultTo('software').comment('software | business | service_desk');
    t.integer('lead_user_id').nullable().references('users.id').onDelete('SET NULL').comment('Project lead');
  });
  await knex.raw('alter sequence projects_id_seq restart with 10000');
  await knex.schema.createTable('issue_types', (t) => {
    t.comment('Tracker issue types');
    t.increments('id').comment('Issue type id (shown as a string by the REST API)');
    t.string('name', 255).notNullable().comment('Name');
    t.string('name_key', 255).notNullable().unique().comment('lower(name): uniqueness key');
    t.text('description').notNullable().defaultTo('').comment('Description');
    t.boolean('subtask').notNullable().defaultTo(false).comment('true for a sub-task type');
  });
  await knex.raw('alter sequence issue_types_id_seq restart with 10000');
  await knex.schema.createTable('custom_fields', (t) => {
    t.comment('Custom fields; the REST id is customfield_<id>');
    t.increments('id').comment('Numeric field id');
    t.string('name', 255).notNullable().comment('Field name');
    t.string('name_key', 255).notNullable().comment('lower(name): for filtering and ordering');
    t.text('description').notNullable().defaultTo('').comment('Description');
    t.string('type_key', 255).notNullable().comment('Full type key, e.g. com.atlassian.jira.plugin.system.customfieldtypes:select');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When created');
    t.index(['name_key', 'id']);
  });
  await knex.raw('alter sequence custom_fields_id_seq restart with 10000');
  await knex.schema.createTable('field_contexts', (t) => {
    t.comment('Configuration contexts of a custom field; each field has one default (global) context');
    t.increments('id').comment('Context id');
    t.integer('field_id').notNullable().references('custom_fields.id').onDelete('CASCADE').comment('The field');
    t.string('name', 255).notNullable().comment('Context name');
    t.text('description').notNullable().defaultTo('').comment('Description');
    t.boolean('is_default').notNullable().defaultTo(false).comment('The default context, created with the field; cannot be deleted');
    t.index(['field_id']);
  });
  await knex.raw('alter sequence field_contexts_id_seq restart with 10100');
  await knex.raw('create unique index field_contexts_one_default on field_contexts (field_id) where is_default');
  await knex.schema.createTable('field_context_projects', (t) => {
    t.comment('Projects a context applies to; none means all projects');
    t.integer('context_id').notNullable().references('field_contexts.id').onDelete('CASCADE').comment('The context');
    t.integer('field_id').notNullable().references('custom_fields.id').onDelete('CASCADE').comment('Its field (a project is in one context per field)');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE').comment('The project');
    t.primary(['context_id', 'project_id']);
    t.unique(['field_id', 'project_id']);
  });
  await knex.schema.createTable('field_context_issue_types', (t) => {
    t.comment('Issue types a context applies to; none means all issue types');
    t.integer('context_id').notNullable().references('field_contexts.id').onDelete('CASCADE').comment('The context');
    t.integer('issue_type_id').notNullable().references('issue_types.id').onDelete('CASCADE').comment('The issue type');
    t.primary(['context_id', 'issue_type_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['field_context_issue_types', 'field_context_projects', 'field_contexts', 'custom_fields', 'issue_types', 'projects']) {
    await knex.schema.dropTableIfExists(t);
  }
}
