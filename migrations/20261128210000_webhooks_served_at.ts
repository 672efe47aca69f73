import type { Knex } from 'knex';

/**
 * Issue 44, finding 6: the delivery worker claims the subscriptions that have work, least recently served first
 * (webhooks.repository.ts claimWebhooks), so that no subscription waits behind the first eight.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.timestamp('served_at', { useTz: true }).nullable().comment('When a node last claimed it to deliver (null: never); the least recently served is claimed first');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => t.dropColumn('served_at'));
}
