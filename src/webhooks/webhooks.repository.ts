import type { Knex } from 'knex';
import { relevantEntryAfterCursor } from './event-feed.repository.ts';
import { dueHeadOf } from './webhook-deliveries.repository.ts';

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

/** Enabled subscriptions no live node holds: the lease is unset, or expired (its node died or stalled). */
function free(trx: Knex.Transaction): Knex.QueryBuilder {
  return trx('webhooks')
    .select('id')
    .where({ enabled: true })
    .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', trx.fn.now()));
}

/**
 * Claims up to `limit` free subscriptions that have work, the least recently served first, so that any number of
 * subscriptions take turns and one with work never waits behind idle ones (a fixed `order by id` over every
 * subscription served the same eight each round and starved the rest). Work is an entry of the subscription's
 * events after its cursor up to `upTo`, or a queue whose oldest pending delivery is due: a batch a killed node was
 * sending is such a queue, so its subscription is taken over, with that batch, once the lease expires.
 *
 * First, in the same transaction, the free subscriptions with entries after their cursor but none of theirs have
 * the cursor moved to `upTo` (what producing nothing would do), so that afterwards `cursor < upTo` means work and
 * each entry is looked at once per subscription, not at every round. Both steps skip rows another node has locked
 * (it is claiming or moving them at the same moment) rather than wait for them, so two nodes never deadlock.
 */
export async function claimWebhooks(trx: Knex.Transaction, node: string, leaseMs: number, limit: number, upTo: number): Promise<Claim[]> {
  const idle = free(trx).andWhere('cursor', '<', upTo).whereNotExists(relevantEntryAfterCursor(trx, upTo)).forUpdate().skipLocked();
  await trx('webhooks').whereIn('id', idle).update({ cursor: upTo });
  const claimable = (await free(trx)
    .andWhere((w) => w.where('cursor', '<', upTo).orWhereExists(dueHeadOf(trx)))
    .orderByRaw('served_at asc nulls first, id')
    .limit(limit)
    .forUpdate()
    .skipLocked()) as { id: number }[];
  if (claimable.length === 0) return [];
  const rows = (await trx('webhooks')
    .whereIn(
      'id',
      claimable.map((r) => r.id),
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
