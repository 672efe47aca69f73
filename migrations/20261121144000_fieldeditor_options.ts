import type { Knex } from 'knex';

/** Field editor: options of select fields per context (a tree for cascading selects), defaults, settings. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('field_options', (t) => {
    t.comment('Options of select-type custom fields, per context; children of cascading selects point to their parent');
    t.increments('id').comment('Option id');
    t.integer('field_id').notNullable().references('custom_fields.id').onDelete('CASCADE').comment('The field');
    t.integer('context_id').notNullable().references('field_contexts.id').onDelete('CASCADE').comment('The context whose list holds the option');
    t.integer('parent_id').nullable().references('field_options.id').onDelete('CASCADE').comment('Parent option (cascading selects); null for top-level options');
    t.string('value', 255).notNullable().comment('The option value shown to users (trimmed, 1..255 characters)');
    t.string('value_key', 255).notNullable().comment('Value lower-cased by the application: siblings must differ in it');
    t.bigInteger('position').notNullable().comment('Sort key among its siblings: sparse (gaps of 2^20) so a move rewrites one row; the API\'s dense sequence is its rank');
    t.boolean('disabled').notNullable().defaultTo(false).comment('A disabled option is kept but not offered on issues');
    t.index(['parent_id'], 'field_options_parent_idx');
  });
  await knex.raw('alter sequence field_options_id_seq restart with 10000');
  // The race-proof duplicate guard: one value per sibling list, without regard to case.
  await knex.raw('create unique index field_options_sibling_value on field_options (context_id, coalesce(parent_id, 0), value_key)');
  await knex.raw('create index field_options_sibling_order on field_options (context_id, coalesce(parent_id, 0), position, id)');

  await knex.schema.createTable('field_option_lists', (t) => {
    t.comment('One row per sibling list that was ever written: the row every write locks first, and a version for caches');
    t.integer('context_id').notNullable().references('field_contexts.id').onDelete('CASCADE').comment('The context');
    t.integer('parent_key').notNullable().comment('Parent option id, 0 for the top-level list (no FK: 0 is not an option)');
    t.bigInteger('version').notNullable().defaultTo(1).comment('Raised by every write to the list; readers compare it to their cache');
    t.primary(['context_id', 'parent_key']);
  });

  await knex.schema.createTable('field_default_options', (t) => {
    t.comment('Default value of a context: the chosen options in order (single: one; cascading: parent then child; multi: all)');
    t.integer('context_id').notNullable().references('field_contexts.id').onDelete('CASCADE').comment('The context');
    t.integer('option_id').notNullable().references('field_options.id').onDelete('CASCADE').comment('A chosen option; deleting it removes it from the default');
    t.integer('position').notNullable().comment('Order in the default (cascading: 0 parent, 1 child)');
    t.primary(['context_id', 'option_id']);
    t.index(['option_id'], 'field_default_options_option_idx');
  });

  await knex.schema.createTable('fieldeditor_settings', (t) => {
    t.comment('Host-wide field-editor settings (key/value)');
    t.string('key', 64).primary().comment('Setting name, e.g. onlyAdminsMayDeleteOptions');
    t.jsonb('value').notNullable().comment('Setting value as JSON');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When last changed');
    t.string('updated_by', 255).nullable().comment('Name of the user who last changed it');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['fieldeditor_settings', 'field_default_options', 'field_option_lists', 'field_options']) {
    await knex.schema.dropTableIfExists(t);
  }
}
