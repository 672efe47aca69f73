import type { Knex } from 'knex';

/**
 * One key per actor in the event log: entries written by the server's TypeScript keyed the actor with
 * JavaScript's toLowerCase, those of the option write functions with the database's lower(), and the two
 * differ for a few letters (a final Σ, İ), so filtering by such a user missed part of its entries. Every
 * entry is now keyed with lower() (event-log.repository.ts); this re-keys the entries written before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('update event_log set actor_key = lower(actor) where actor_key is distinct from lower(actor)');
}

export async function down(): Promise<void> {
  // Nothing to undo: lower() keys are what every version of the filter can read for ASCII names.
}
