import type { Knex } from 'knex';

/** A row of `webhooks`. */
export interface WebhookRow {
  id: number;
  name: string;
  url: string;
  events: string[];
  field_id: number | null;
  context_id: number | null;
  secret: string | null;
  enabled: boolean;
  status: 'ok' | 'failing';
  cursor: number;
  lease_node: string | null;
  lease_until: Date | null;
  lease_ticket: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** What a create or an update writes (the rest of a row is the delivery worker's or the database's). */
export type WebhookWrite = Pick<WebhookRow, 'name' | 'url' | 'events' | 'field_id' | 'context_id' | 'secret' | 'enabled'>;

const COLUMNS = ['id', 'name', 'url', 'events', 'field_id', 'context_id', 'secret', 'enabled', 'status', 'cursor', 'lease_node', 'lease_until', 'lease_ticket', 'created_by', 'created_at', 'updated_at'];

const normalise = (r: WebhookRow): WebhookRow => ({ ...r, cursor: Number(r.cursor), lease_ticket: Number(r.lease_ticket) });

/** A new subscription, starting after the newest event-log entry `cursor` (it is told of later changes only). */
export async function insertWebhook(q: Knex, w: WebhookWrite, by: string, cursor: number): Promise<WebhookRow> {
  const [row] = (await q('webhooks')
    .insert({ ...w, events: w.events, created_by: by, cursor })
    .returning(COLUMNS)) as WebhookRow[];
  return normalise(row!);
}

export async function listWebhooks(q: Knex): Promise<WebhookRow[]> {
  return ((await q('webhooks').select(COLUMNS).orderBy('id')) as WebhookRow[]).map(normalise);
}

export async function findWebhook(q: Knex, id: number, lock = false): Promise<WebhookRow | undefined> {
  const b = q('webhooks').select(COLUMNS).where({ id }).first();
  if (lock) b.forUpdate();
  const row = (await b) as WebhookRow | undefined;
  return row && normalise(row);
}

/** Replaces what an administrator sets; a changed target or re-enabled subscription starts `ok` again. */
export async function updateWebhook(q: Knex, id: number, w: WebhookWrite, resetStatus: boolean): Promise<WebhookRow | undefined> {
  const [row] = (await q('webhooks')
    .where({ id })
    .update({ ...w, updated_at: q.fn.now(), ...(resetStatus ? { status: 'ok' } : {}) })
    .returning(COLUMNS)) as WebhookRow[];
  return row && normalise(row);
}

/** Deletes a subscription with its queue and history (cascade). `returning`: knex-pglite's del() answers no count. */
export async function deleteWebhook(q: Knex, id: number): Promise<boolean> {
  const rows = (await q('webhooks').where({ id }).del().returning('id')) as { id: number }[];
  return rows.length > 0;
}

/** The lowest cursor of the enabled subscriptions (undefined: none): where the event horizon must begin. */
export async function lowestCursor(q: Knex): Promise<number | undefined> {
  const row = (await q('webhooks').where({ enabled: true }).min('cursor as c').first()) as { c: number | string | null } | undefined;
  return row?.c === null || row?.c === undefined ? undefined : Number(row.c);
}

/** A subscription this node holds: the ticket every later write names. */
export interface Claim {
  row: WebhookRow;
  ticket: number;
}

/**
 * Claims up to `limit` enabled subscriptions no live node holds (their lease is unset or expired), the least
 * recently served first, so that any number of subscriptions take turns (a fixed `order by id` served the same
 * ones every round and starved the rest). Rows another node is claiming at the same moment are skipped, not
 * waited for. Subscriptions are not filtered by whether they have work: a filter on the cursor and the due
 * deliveries let a surviving node resend far more than the batch in flight after a node was killed
 * (test/pg/webhooks-cluster.test.ts), and a claim without work costs one empty round.
 */
export async function claimWebhooks(trx: Knex.Transaction, node: string, leaseMs: number, limit: number): Promise<Claim[]> {
  const free = (await trx('webhooks')
    .select('id')
    .where({ enabled: true })
    .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', trx.fn.now()))
    .orderByRaw('served_at asc nulls first, id')
    .limit(limit)
    .forUpdate()
    .skipLocked()) as { id: number }[];
  if (free.length === 0) return [];
  const rows = (await trx('webhooks')
    .whereIn(
      'id',
      free.map((r) => r.id),
    )
    .update({
      lease_node: node,
      lease_until: trx.raw('now() + make_interval(secs => ?)', [leaseMs / 1000]),
      lease_ticket: trx.raw('lease_ticket + 1'),
      served_at: trx.fn.now(),
    })
    .returning(COLUMNS)) as WebhookRow[];
  return rows.map(normalise).map((row) => ({ row, ticket: row.lease_ticket }));
}

/** What a delivering node reads again at every renewal: an administrator may have changed it meanwhile. */
export type Current = Pick<WebhookRow, 'url' | 'secret' | 'enabled'>;

/**
 * Extends the lease (and moves the cursor, when given) if this node still holds the subscription, and answers its
 * current target, secret and state; undefined when the claim is gone (expired and claimed by another node, or the
 * subscription deleted): then the node must write nothing more for it.
 */
export async function renewClaim(q: Knex, id: number, ticket: number, leaseMs: number, cursor?: number): Promise<Current | undefined> {
  const [row] = (await q('webhooks')
    .where({ id, lease_ticket: ticket })
    .update({ lease_until: q.raw('now() + make_interval(secs => ?)', [leaseMs / 1000]), ...(cursor === undefined ? {} : { cursor }) })
    .returning(['url', 'secret', 'enabled'])) as Current[];
  return row;
}

/** Gives the subscription back (the node is done with it for now). */
export async function releaseClaim(q: Knex, id: number, ticket: number): Promise<void> {
  await q('webhooks').where({ id, lease_ticket: ticket }).update({ lease_node: null, lease_until: null });
}

export async function setStatus(q: Knex, id: number, status: 'ok' | 'failing'): Promise<void> {
  await q('webhooks').where({ id }).whereNot({ status }).update({ status });
}
