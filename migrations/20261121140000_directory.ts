import type { Knex } from 'knex';

/** Directory: users, groups, memberships, personal access tokens and the failed-login counters. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.comment('Host users who log in with Basic auth or personal access tokens');
    t.increments('id').comment('Surrogate key');
    t.string('name', 255).notNullable().comment('Login name as entered; unique without regard to case');
    t.string('name_key', 255).notNullable().unique().comment('lower(name): the lookup and uniqueness key');
    t.string('display_name', 255).notNullable().comment('Full name shown to people');
    t.string('email', 255).notNullable().defaultTo('').comment('E-mail address, may be empty');
    t.boolean('active').notNullable().defaultTo(true).comment('Inactive users cannot log in');
    t.string('password_hash', 255).notNullable().comment('scrypt$N$r$p$salt$hash; never the password');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When created');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('Last change');
  });
  await knex.schema.createTable('groups', (t) => {
    t.comment('Host groups; the built-in ones carry the roles');
    t.increments('id').comment('Surrogate key');
    t.string('name', 255).notNullable().comment('Group name as entered');
    t.string('name_key', 255).notNullable().unique().comment('lower(name): lookup and uniqueness key');
    t.boolean('builtin').notNullable().defaultTo(false).comment('users, administrators, system-administrators');
  });
  await knex.schema.createTable('group_members', (t) => {
    t.comment('Which user belongs to which group');
    t.integer('group_id').notNullable().references('groups.id').onDelete('CASCADE').comment('The group');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE').comment('The member');
    t.primary(['group_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('access_tokens', (t) => {
    t.comment('Personal access tokens; only a SHA-256 of the raw token is kept');
    t.increments('id').comment('Surrogate key, shown to the owner');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE').comment('Owner');
    t.string('name', 255).notNullable().comment('Label given by the owner');
    t.string('token_hash', 64).notNullable().unique().comment('hex SHA-256 of the raw token');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When created');
    t.timestamp('expires_at', { useTz: true }).nullable().comment('Refused from this moment; null: never');
    t.timestamp('last_used_at', { useTz: true }).nullable().comment('Last authentication, at most a minute stale');
    t.index(['user_id']);
  });
  await knex.schema.createTable('auth_failures', (t) => {
    t.comment('Failed Basic logins in a row per username (existing or not, so locks do not reveal names)');
    t.string('name_key', 255).primary().comment('lower(username) as sent');
    t.integer('failures').notNullable().defaultTo(0).comment('Failures since the last success or reset');
    t.timestamp('locked_at', { useTz: true }).nullable().comment('Set when failures reached MAX_AUTH_ATTEMPTS');
    t.timestamp('last_failure_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('Last failure');
  });
  await knex('groups').insert([
    { name: 'users', name_key: 'users', builtin: true },
    { name: 'administrators', name_key: 'administrators', builtin: true },
    { name: 'system-administrators', name_key: 'system-administrators', builtin: true },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['auth_failures', 'access_tokens', 'group_members', 'groups', 'users']) {
    await knex.schema.dropTableIfExists(t);
  }
}
