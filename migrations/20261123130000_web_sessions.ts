import type { Knex } from 'knex';

/** Sign-in sessions of the web interface, shared by every node through the database. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('web_sessions', (t) => {
    t.comment('Server-side sessions of the web interface (cookie JSESSIONID); only a SHA-256 of the id is kept');
    t.string('id_hash', 64).primary().comment('hex SHA-256 of the session id sent in the cookie; never the id itself');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE').comment('Signed-in user; deleting the user ends its sessions');
    t.string('password_stamp', 64).notNullable().comment('hex SHA-256 of the password hash at sign-in: a changed password ends the session');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('Sign-in time');
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('Last use, at most a minute stale; the idle limit counts from here');
    t.timestamp('expires_at', { useTz: true }).notNullable().comment('Absolute end (sign-in time + SESSION_MAX_HOURS)');
    t.index(['user_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('web_sessions');
}
