import type { Knex } from 'knex';

/**
 * Issue 28: webhook subscriptions and their deliveries. Deliveries are produced from the field editor's event
 * log (the outbox): each subscription keeps the last event-log id it has handed out, so a delivery is produced
 * once per entry and subscription, in the log's order, whichever node produces it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.comment('Webhook subscriptions: where to POST which field-editor events (docs/webhooks.md)');
    t.increments('id').comment('Subscription id (the {id} of /rest/webhooks/1.0/webhook/{id})');
    t.string('name', 255).notNullable().comment('Name shown to administrators');
    t.string('url', 2048).notNullable().comment('Target URL; on the webhook allowlist when it was saved, checked again at every delivery');
    t.specificType('events', 'text[]').notNullable().comment('Event names delivered (option_created, grants_changed …)');
    t.integer('field_id').nullable().comment('Only events of this custom field (null: every field)');
    t.integer('context_id').nullable().comment('Only events of this context (null: every context)');
    t.text('secret').nullable().comment('HMAC-SHA256 key of X-Hub-Signature; never shown by the API (null: unsigned)');
    t.boolean('enabled').notNullable().defaultTo(true).comment('false: paused; events are still recorded and delivered once enabled again');
    t.string('status', 16).notNullable().defaultTo('ok').comment("'ok', or 'failing' once a delivery was retried for the whole retry period");
    t.bigInteger('cursor').notNullable().defaultTo(0).comment('The last event-log id handed out to this subscription (deliveries are produced after it)');
    t.string('lease_node', 255).nullable().comment('The node delivering for this subscription now (null: none)');
    t.timestamp('lease_until', { useTz: true }).nullable().comment('Until when that node holds the subscription; after it, another node takes over');
    t.bigInteger('lease_ticket').notNullable().defaultTo(0).comment('Raised by every claim; writes of a delivering node name it, so a node that lost its claim writes nothing');
    t.string('created_by', 255).notNullable().comment('User name of the administrator who created it');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When it was created');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When it was last changed');
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.comment('One event for one subscription: its attempts, outcome and the first bytes of the last answer');
    t.bigIncrements('id').comment('Delivery id; in event-log order within a subscription');
    t.integer('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE').comment('The subscription');
    t.bigInteger('event_log_id').nullable().comment('The event-log entry delivered (null: a test event)');
    t.string('event', 64).notNullable().comment('Event name (webhookEvent of the body)');
    t.uuid('identifier').notNullable().comment('X-Atlassian-Webhook-Identifier: the same for every attempt of this delivery');
    t.jsonb('payload').notNullable().comment('The body without its timestamp (added at each attempt, so a retry is not refused as a replay)');
    t.string('status', 16).notNullable().defaultTo('pending').comment("'pending' (to send or retry), 'delivered' (2xx) or 'failed' (given up)");
    t.integer('attempts').notNullable().defaultTo(0).comment('Attempts made so far');
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('Not sent before this time (back-off)');
    t.integer('response_status').nullable().comment('HTTP status of the last answer (null: none, e.g. a timeout or a refused address)');
    t.integer('duration_ms').nullable().comment('Duration of the last attempt');
    t.text('response_body').nullable().comment('The first 1 KiB of the last answer');
    t.text('error').nullable().comment('Why the last attempt failed, when it did');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('When the delivery was produced');
    t.timestamp('last_attempt_at', { useTz: true }).nullable().comment('When the last attempt was made');
    t.timestamp('delivered_at', { useTz: true }).nullable().comment('When a 2xx answer acknowledged it');
  });
  await knex.raw('create index webhook_deliveries_pending on webhook_deliveries (webhook_id, id) where status = \'pending\'');
  await knex.raw('create index webhook_deliveries_history on webhook_deliveries (webhook_id, id desc)');
  await knex.raw('create index webhook_deliveries_created on webhook_deliveries (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhooks');
}
