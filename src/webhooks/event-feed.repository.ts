import type { Knex } from 'knex';
import { KIND_EVENTS, type LogEntry } from './webhook-events.ts';

/**
 * Read-only access to the field editor's `event_log` (the outbox webhooks are delivered from; the field editor
 * owns and writes the table, in each change's transaction). Nothing here writes it.
 */

export interface IdsAfter {
  /** Visible entry ids after the given one, ascending. */
  ids: number[];
  /** This statement's snapshot (`pg_current_snapshot()`), to tell later whether a gap may still fill. */
  snapshot: string;
  /** When a snapshot was given: every transaction that could have been running at it has ended. */
  settled: boolean;
}

/** Entry ids after `after` (at most `limit`), the statement's snapshot, and whether `since`'s transactions all ended. */
export async function idsAfter(q: Knex, after: number, limit: number, since: string | null): Promise<IdsAfter> {
  const { rows } = await q.raw<{ rows: { ids: (number | string)[] | null; snapshot: string; settled: boolean }[] }>(
    `select (select array_agg(id order by id) from (select id from event_log where id > ? order by id limit ?) x) as ids,
            pg_current_snapshot()::text as snapshot,
            coalesce(pg_snapshot_xmin(pg_current_snapshot()) >= pg_snapshot_xmax(?::text::pg_snapshot), false) as settled`,
    [after, limit, since],
  );
  const row = rows[0]!;
  return { ids: (row.ids ?? []).map(Number), snapshot: row.snapshot, settled: row.settled };
}

/** The newest entry id (0 when the log is empty): where a new subscription starts. */
export async function newestEntryId(q: Knex): Promise<number> {
  const row = (await q('event_log').max('id as id').first()) as { id: number | string | null } | undefined;
  return Number(row?.id ?? 0);
}

export interface EntryFilter {
  after: number;
  upTo: number;
  kinds: readonly string[];
  fieldId: number | null;
  contextId: number | null;
  limit: number;
}

/** Entries of the given kinds (and field and context, when set) in (after, upTo], in id order. */
export async function entriesBetween(q: Knex, f: EntryFilter): Promise<LogEntry[]> {
  if (f.kinds.length === 0 || f.upTo <= f.after) return [];
  const b = q('event_log')
    .select('id', 'created_at', 'actor', 'kind', 'field_id', 'context_id', 'target', 'before', 'after')
    .where('id', '>', f.after)
    .andWhere('id', '<=', f.upTo)
    .whereIn('kind', f.kinds as string[])
    .orderBy('id')
    .limit(f.limit);
  if (f.fieldId !== null) b.where('field_id', f.fieldId);
  if (f.contextId !== null) b.where('context_id', f.contextId);
  const rows = (await b) as {
    id: number | string;
    created_at: Date;
    actor: string;
    kind: string;
    field_id: number | null;
    context_id: number | null;
    target: Record<string, unknown>;
    before: unknown;
    after: unknown;
  }[];
  return rows.map((r) => ({
    id: Number(r.id),
    time: new Date(r.created_at),
    actor: r.actor,
    kind: r.kind,
    fieldId: r.field_id,
    contextId: r.context_id,
    target: r.target,
    before: r.before,
    after: r.after,
  }));
}

/**
 * A subquery correlated on the outer `webhooks` row: some entry after the row's cursor, up to `upTo`, is one of its
 * events (of its field and context, when set), i.e. `entriesBetween` would hand it something. The kinds are matched
 * to the row's events through the producer's own table (webhook-events.ts), given as values.
 */
export function relevantEntryAfterCursor(q: Knex, upTo: number): Knex.QueryBuilder {
  const pairs = KIND_EVENTS.map(() => '(?, ?)').join(', ');
  return q('event_log as e')
    .select(q.raw('1'))
    .whereRaw('e.id > webhooks.cursor')
    .andWhere('e.id', '<=', upTo)
    .whereRaw(`e.kind in (select m.kind from (values ${pairs}) as m(kind, event) where m.event = any(webhooks.events))`, KIND_EVENTS.flat())
    .whereRaw('(webhooks.field_id is null or e.field_id = webhooks.field_id)')
    .whereRaw('(webhooks.context_id is null or e.context_id = webhooks.context_id)');
}

/** Time of the oldest entry after `after` (the lag of a subscription that has not produced its deliveries yet). */
export async function oldestEntryAfter(q: Knex, after: number): Promise<Date | undefined> {
  const row = (await q('event_log').where('id', '>', after).orderBy('id').first('created_at')) as { created_at: Date } | undefined;
  return row ? new Date(row.created_at) : undefined;
}
