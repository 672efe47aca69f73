import type { Knex } from 'knex';

/**
 * Issue 44: failed logins are locked per user name AND client address, so a stranger's guesses lock the name only
 * for the stranger's address. `auth_failures` keeps the name's failures from all addresses together (for the
 * growing delay beyond LOGIN_DELAY_AFTER_FAILURES) and when an address of it was last locked (for the
 * administrators' view); the locks themselves move to `auth_address_failures`. Locks of the old kind (name only)
 * are not carried over: they would lock the owner out from every address, which is what this change removes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('auth_address_failures', (t) => {
    t.comment('Failed password logins in a row per user name and client address (a name with no user too)');
    t.string('name_key', 255).notNullable().comment('lower(username) as sent');
    t.string('address_key', 64).notNullable()
      .comment('The client: IPv4 text, IPv6 network of CLIENT_IPV6_PREFIX bits in RFC 5952 text, token:<id> for myself/password through a token, - when unknown');
    t.integer('failures').notNullable().defaultTo(0).comment('Failures in a row from this address since its last success or reset');
    t.timestamp('locked_at', { useTz: true }).nullable().comment('Set when failures reached MAX_AUTH_ATTEMPTS; the name is locked for this address');
    t.timestamp('last_failure_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('Last failure');
    t.primary(['name_key', 'address_key']);
  });
  await knex('auth_failures').update({ locked_at: null });
  await knex.raw(`comment on table auth_failures is 'Failed logins per user name from all addresses together (the locks are per address: auth_address_failures)'`);
  await knex.raw(`comment on column auth_failures.failures is 'Failures from all addresses in the series that last_failure_at continues (a gap of the lock period ends it)'`);
  await knex.raw(`comment on column auth_failures.locked_at is 'When an address of this name was last locked (the locks: auth_address_failures)'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('auth_address_failures');
}
