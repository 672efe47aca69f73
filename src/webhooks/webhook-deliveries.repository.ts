import type { Knex } from 'knex';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A row of `webhook_deliveries`. */
export interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_log_id: number | null;
  event: string;
  identifier: string;
  payload: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  response_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
}

const normalise = (r: DeliveryRow): DeliveryRow => ({ ...r, id: Number(r.id), event_log_id: r.event_log_id === null ? null : Number(r.event_log_id) });

export interface NewDelivery {
  event_log_id: number | null;
  event: string;
  identifier: string;
  payload: Record<string, unknown>;
}

/** Appends deliveries to a subscription's queue, in the order given (their ids keep it). */
export async function insertDeliveries(q: Knex, webhookId: number, deliveries: readonly NewDelivery[]): Promise<void> {
  for (let i = 0; i < deliveries.length; i += 500) {
    await q('webhook_deliveries').insert(
      deliveries.slice(i, i + 500).map((d) => ({ webhook_id: webhookId, ...d, payload: JSON.stringify(d.payload) })),
    );
  }
}

/** A delivery recorded with the outcome of one attempt already made (test events and redeliveries). */
export async function insertAttempted(q: Knex, webhookId: number, d: NewDelivery, outcome: Outcome): Promise<DeliveryRow> {
  const [row] = (await q('webhook_deliveries')
    .insert({
      webhook_id: webhookId,
      ...d,
      payload: JSON.stringify(d.payload),
      status: outcome.ok ? 'delivered' : 'failed',
      attempts: 1,
      response_status: outcome.status,
      duration_ms: outcome.durationMs,
      response_body: outcome.excerpt,
      error: outcome.error,
      last_attempt_at: q.fn.now(),
      delivered_at: outcome.ok ? q.fn.now() : null,
    })
    .returning('*')) as DeliveryRow[];
  return normalise(row!);
}

/** A queued delivery as the sender needs it: the body as JSON text (sent as stored, never parsed). */
export interface QueuedDelivery {
  id: number;
  identifier: string;
  body: string;
  attempts: number;
  created_at: Date;
}

/**
 * The head of a subscription's queue: its oldest pending deliveries, in order, if the oldest is due. Nothing when
 * the oldest waits for its back-off: a later event is never sent before an earlier one.
 */
export async function dueHead(q: Knex, webhookId: number, limit: number): Promise<QueuedDelivery[]> {
  const rows = (await q('webhook_deliveries')
    .select('id', 'identifier', q.raw('payload::text as body'), 'attempts', 'created_at', q.raw('next_attempt_at <= now() as due'))
    .where({ webhook_id: webhookId, status: 'pending' })
    .orderBy('id')
    .limit(limit)) as (QueuedDelivery & { due: boolean })[];
  return rows[0]?.due ? rows.map((r) => ({ ...r, id: Number(r.id) })) : [];
}

/**
 * A subquery correlated on the outer `webhooks` row: its queue's oldest pending delivery is due (what `dueHead`
 * would send). A later delivery being due does not count: it waits behind the head's back-off.
 */
export function dueHeadOf(q: Knex): Knex.QueryBuilder {
  const head = q('webhook_deliveries as d').select('d.next_attempt_at').whereRaw('d.webhook_id = webhooks.id').andWhere('d.status', 'pending').orderBy('d.id').limit(1);
  return q.select(q.raw('1')).from(head.as('head')).where('head.next_attempt_at', '<=', q.fn.now());
}

/** What one attempt found. */
export interface Outcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/** One attempt's outcome to record: delivered, retried after `retryInMs`, or given up (`failed`). */
export interface Recorded extends Outcome {
  id: number;
  next: 'delivered' | 'retry' | 'failed';
  retryInMs: number;
}

/** Records attempts' outcomes (the caller's transaction, after it checked its claim). */
export async function recordAttempts(q: Knex, outcomes: readonly Recorded[]): Promise<void> {
  for (const o of outcomes) {
    await q('webhook_deliveries')
      .where({ id: o.id, status: 'pending' })
      .update({
        status: o.next === 'retry' ? 'pending' : o.next,
        attempts: q.raw('attempts + 1'),
        response_status: o.status,
        duration_ms: o.durationMs,
        response_body: o.excerpt,
        error: o.error,
        last_attempt_at: q.fn.now(),
        next_attempt_at: q.raw('now() + make_interval(secs => ?)', [o.retryInMs / 1000]),
        ...(o.next === 'delivered' ? { delivered_at: q.fn.now() } : {}),
      });
  }
}

/** Delivered ones in one statement (the common case of a batch): the same as recordAttempts, for many ids. */
export async function recordDelivered(q: Knex, outcomes: readonly Recorded[]): Promise<void> {
  if (outcomes.length === 0) return;
  const values = outcomes.map(() => '(?::bigint, ?::int, ?::int, ?::text)').join(', ');
  await q.raw(
    `update webhook_deliveries d set status = 'delivered', attempts = d.attempts + 1, response_status = v.status,
            duration_ms = v.duration, response_body = v.body, error = null, last_attempt_at = now(), delivered_at = now()
       from (values ${values}) as v(id, status, duration, body)
      where d.id = v.id and d.status = 'pending'`,
    outcomes.flatMap((o) => [o.id, o.status, o.durationMs, o.excerpt]),
  );
}

export async function findDelivery(q: Knex, webhookId: number, id: number): Promise<DeliveryRow | undefined> {
  const row = (await q('webhook_deliveries').where({ webhook_id: webhookId, id }).first()) as DeliveryRow | undefined;
  return row && normalise(row);
}

/** One page of a subscription's history, newest first, and its total. */
export async function pageOfDeliveries(q: Knex, webhookId: number, startAt: number, maxResults: number): Promise<{ total: number; rows: DeliveryRow[] }> {
  const [count, rows] = await Promise.all([
    q('webhook_deliveries').where({ webhook_id: webhookId }).first(q.raw('count(*)::int as n')) as Promise<{ n: number } | undefined>,
    maxResults === 0
      ? Promise.resolve([] as DeliveryRow[])
      : (q('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('id', 'desc').offset(startAt).limit(maxResults) as Promise<DeliveryRow[]>),
  ]);
  return { total: Number(count?.n ?? 0), rows: rows.map(normalise) };
}

/** Deletes settled deliveries (delivered or failed) produced before `before`; pending ones are kept. */
export async function deleteSettledBefore(q: Knex, before: Date | undefined): Promise<number> {
  const { rows } = await q.raw<{ rows: { n: number }[] }>(
    `with gone as (delete from webhook_deliveries where status <> 'pending' ${before ? 'and created_at < ?' : ''} returning 1) select count(*)::int as n from gone`,
    before ? [before] : [],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Age in seconds of the oldest pending delivery's event (0: none pending): the delivery lag. */
export async function oldestPendingSince(q: Knex): Promise<Date | undefined> {
  const row = (await q('webhook_deliveries').where({ status: 'pending' }).orderBy('id').first('payload')) as { payload: { time?: string } } | undefined;
  const time = row?.payload?.time;
  return time ? new Date(time) : undefined;
}
