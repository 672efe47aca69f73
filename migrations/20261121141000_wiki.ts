import type { Knex } from 'knex';

/** Wiki host: spaces, space permissions, content with versions, read restrictions, and the code-box index. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('spaces', (t) => {
    t.comment('Wiki spaces');
    t.increments('id').comment('Surrogate key');
    t.string('key', 255).notNullable().unique().comment('Space key as created (e.g. DEMO); unique');
    t.string('name', 255).notNullable().comment('Display name');
    t.text('description').notNullable().defaultTo('').comment('Plain-text description');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When created');
  });
  await knex.schema.createTable('space_permissions', (t) => {
    t.comment('Space permissions granted to a user or a group');
    t.increments('id').comment('Permission id, as returned by the REST API');
    t.integer('space_id').notNullable().references('spaces.id').onDelete('CASCADE').comment('The space');
    t.integer('user_id').nullable().references('users.id').onDelete('CASCADE').comment('Grantee user (or group_id)');
    t.integer('group_id').nullable().references('groups.id').onDelete('CASCADE').comment('Grantee group (or user_id)');
    t.string('operation', 16).notNullable().comment('read | create');
    t.string('target', 16).notNullable().comment('space | page | blogpost | comment');
    t.index(['space_id', 'operation']);
  });
  await knex.raw(
    'alter table space_permissions add constraint space_permissions_one_subject check ((user_id is null) <> (group_id is null))',
  );
  await knex.schema.createTable('contents', (t) => {
    t.comment('Pages, blog posts and comments; the current version is kept here, older ones in content_versions');
    t.increments('id').comment('Content id (digits, shown as a string by the host REST API)');
    t.string('type', 16).notNullable().comment('page | blogpost | comment');
    t.string('status', 16).notNullable().defaultTo('current').comment('current | trashed');
    t.string('title', 255).notNullable().comment('Title (comments: derived from the container)');
    t.integer('space_id').notNullable().references('spaces.id').onDelete('CASCADE').comment('Owning space');
    t.integer('parent_id').nullable().references('contents.id').onDelete('SET NULL').comment('Parent page of a page');
    t.integer('container_id').nullable().references('contents.id').onDelete('CASCADE').comment('Page or blog post of a comment');
    t.integer('version').notNullable().defaultTo(1).comment('Current version number');
    t.text('body').notNullable().comment('Storage-format XHTML of the current version, macro ids assigned');
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL').comment('Author');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When created');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('Last version saved');
    t.index(['space_id', 'type']);
    t.index(['parent_id']);
    t.index(['container_id']);
  });
  await knex.schema.createTable('content_versions', (t) => {
    t.comment('Every saved version of a content, for history and the macro-by-id endpoint');
    t.integer('content_id').notNullable().references('contents.id').onDelete('CASCADE').comment('The content');
    t.integer('number').notNullable().comment('Version number, 1 upwards');
    t.string('title', 255).notNullable().comment('Title of that version');
    t.text('body').notNullable().comment('Storage-format XHTML of that version');
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL').comment('Who saved it');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When saved');
    t.primary(['content_id', 'number']);
  });
  await knex.schema.createTable('content_read_restrictions', (t) => {
    t.comment('Read restriction of a page or blog post: when any row exists, only these users and groups may view it');
    t.increments('id').comment('Surrogate key');
    t.integer('content_id').notNullable().references('contents.id').onDelete('CASCADE').comment('Restricted content');
    t.integer('user_id').nullable().references('users.id').onDelete('CASCADE').comment('Allowed user (or group_id)');
    t.integer('group_id').nullable().references('groups.id').onDelete('CASCADE').comment('Allowed group (or user_id)');
    t.index(['content_id']);
  });
  await knex.raw(
    'alter table content_read_restrictions add constraint content_read_restrictions_one_subject check ((user_id is null) <> (group_id is null))',
  );
  await knex.schema.createTable('codeboxes', (t) => {
    t.comment('Code-box index: every code-box macro of the current version of each content, parsed at save time');
    t.integer('content_id').notNullable().references('contents.id').onDelete('CASCADE').comment('Embedding content');
    t.string('macro_id', 255).notNullable().comment('ac:macro-id of the macro (opaque, UUID-shaped)');
    t.string('kind', 64).notNullable().comment('advanced-codeblock-macro | advanced-single-codeblock-macro | advanced-remote-codeblock-macro');
    t.jsonb('parameters').notNullable().defaultTo('{}').comment('Macro parameters by name');
    t.jsonb('sections').notNullable().defaultTo('[]').comment('Ordered [{name, key, values: {k: v}}] of the config block');
    t.text('template').nullable().comment('Raw template (null for remote boxes: fetched at download time)');
    t.string('error_kind', 64).nullable().comment('Set when the body could not be parsed (e.g. INVALID_MACRO_BODY)');
    t.primary(['content_id', 'macro_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['codeboxes', 'content_read_restrictions', 'content_versions', 'contents', 'space_permissions', 'spaces']) {
    await knex.schema.dropTableIfExists(t);
  }
}
