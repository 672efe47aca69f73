import type { Knex } from 'knex';
import { escapeLike } from '../../directory/users.repository.ts';

/** One change or host event, as written (see docs/maintenance.md for the kinds). */
export interface EventEntry {
  /** User name, or `system` for jobs and host events. */
  actor: string;
  kind: string;
  fieldId?: number | null;
  contextId?: number | null;
  /** What the change was applied to, e.g. `{type: 'option', id: 10001}`. */
  target: Record<string, unknown>;
  before?: unknown;
  after?: unknown;
  /** Shared by the entries one request wrote together (a batch or a sync, issue 27); absent for single changes. */
  operationId?: string;
}

/** One listed entry: its id and its API form (docs/maintenance.md), as JSON text built by the database. */
export interface EventJsonRow {
  id: number;
  json: string;
}

/**
 * The entry as the API shows it, built by the database: a page of 1000 entries is then 1000 short strings
 * to join, not 3000 jsonb values to parse and serialise again. `time` is the job entries' format
 * (`YYYY-MM-dd'T'HH:mm:ss+0000`, UTC, seconds truncated).
 */
const ENTRY_OBJECT = `json_build_object(
  'id', id, 'time', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+0000"'), 'actor', actor, 'kind', kind,
  'fieldId', field_id, 'contextId', context_id, 'target', target, 'before', before, 'after', after)::text`;
/** `operationId` only on the entries that have one (a batch's or a sync's), so a single change's entry keeps its shape. */
const ENTRY_JSON = `case when operation_id is null then ${ENTRY_OBJECT}
  else left(${ENTRY_OBJECT}, -1) || ',"operationId":"' || operation_id::text || '"}' end as json`;

export interface EventFilter {
  from?: Date;
  to?: Date;
  kinds?: string[];
  actor?: string;
  fieldId?: number;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** Appends entries in the caller's transaction (the change's own), so they commit or roll back with it. */
export async function appendEvents(q: Knex, entries: readonly EventEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await q('event_log').insert(
    entries.map((e) => ({
      actor: e.actor,
      // The database's lower(), as in the option write functions (migration 20261128200000): JavaScript's
      // toLowerCase differs for a few letters (a final Σ, İ), and one name must have one key.
      actor_key: q.raw('lower(?)', [e.actor]),
      kind: e.kind,
      field_id: e.fieldId ?? null,
      context_id: e.contextId ?? null,
      target: JSON.stringify(e.target),
      before: json(e.before),
      after: json(e.after),
      operation_id: e.operationId ?? null,
    })),
  );
}

function filtered(q: Knex, f: EventFilter) {
  const b = q('event_log');
  if (f.from) b.where('created_at', '>=', f.from);
  if (f.to) b.where('created_at', '<', f.to);
  if (f.kinds && f.kinds.length > 0) {
    // `option.*` selects a family of kinds; anything else is an exact kind.
    b.where((w) => {
      for (const k of f.kinds!) {
        if (k.endsWith('.*')) w.orWhereRaw("kind like ? escape '\\'", [`${escapeLike(k.slice(0, -1))}%`]);
        else w.orWhere('kind', k);
      }
    });
  }
  if (f.actor !== undefined) b.whereRaw('actor_key = lower(?)', [f.actor]);
  if (f.fieldId !== undefined) b.where('field_id', f.fieldId);
  return b;
}

/** How many entries the filter selects. */
export async function countEvents(q: Knex, f: EventFilter): Promise<number> {
  const row = (await filtered(q, f).first(q.raw('count(*)::int as n'))) as { n: number } | undefined;
  return Number(row?.n ?? 0);
}

/** Where a page ended: the last entry's sort key (the time as PostgreSQL text, so no microsecond is lost). */
export interface EventKey {
  at: string;
  id: number;
}

/**
 * A cheap mark of the log's state: the id sequence (moves with every entry written, on any node) and the
 * oldest entry (moves with every deletion, which always takes the oldest entries: truncation and both
 * deletion actions). Two equal marks mean no entry was added or deleted in between, except by a transaction
 * that had taken its id before the first mark and committed after it (see docs/maintenance.md).
 */
const MARK = `(select last_value::text || ':' || is_called::text from event_log_id_seq) || '/' ||
              coalesce((select id::text from event_log order by created_at, id limit 1), '')`;

/**
 * One page, newest first (the (created_at, id) index), the total of the filter, and the log's mark read by
 * the same statement as the page. `total` given: not counted again. `after` given: the page starts right
 * after that key (a keyset continuation, which walks no offset); it equals the offset page only if exactly
 * `startAt` entries of the filter come before that key, which the caller checks with the mark (see
 * event-log.pages.ts).
 */
export async function pageOfEvents(
  q: Knex,
  f: EventFilter,
  startAt: number,
  maxResults: number,
  known: { total?: number; after?: EventKey } = {},
): Promise<{ total: number; rows: EventJsonRow[]; last?: EventKey; mark: string }> {
  const b = filtered(q, f)
    .select('id', 'created_at', q.raw('created_at::text as at_key'), q.raw(ENTRY_JSON))
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(maxResults);
  if (maxResults === 0) b.whereRaw('false');
  if (known.after) b.whereRaw('(created_at, id) < (?::timestamptz, ?)', [known.after.at, known.after.id]);
  else b.offset(startAt);
  const inner = b.toSQL();
  // One row with the mark even when the page is empty (left join), the page's order kept by the outer sort.
  const page = q.raw<{ rows: { mark: string; id: number | string | null; at_key: string; json: string }[] }>(
    `select m.mark, p.id, p.at_key, p.json
       from (select ${MARK} as mark) m left join lateral (${inner.sql}) p on true
      order by p.created_at desc, p.id desc`,
    inner.bindings as Knex.RawBinding[],
  );
  const [total, result] = await Promise.all([known.total ?? countEvents(q, f), page]);
  const rows = maxResults === 0 ? [] : result.rows.filter((r) => r.id !== null);
  const end = rows.at(-1);
  return {
    total,
    rows: rows.map((r) => ({ id: Number(r.id), json: r.json })),
    ...(end ? { last: { at: end.at_key, id: Number(end.id) } } : {}),
    mark: result.rows[0]?.mark ?? '',
  };
}

/** Deletes entries older than `before` (all entries without it); returns how many went. */
export async function deleteEvents(q: Knex, before?: Date): Promise<number> {
  // Counted in SQL: knex-pglite's del() does not answer a count (engineering notes B.5), and returning
  // every id of a large truncation would fill memory.
  const { rows } = await q.raw<{ rows: { n: number }[] }>(
    `with gone as (delete from event_log ${before ? 'where created_at < ?' : ''} returning 1) select count(*)::int as n from gone`,
    before ? [before] : [],
  );
  return Number(rows[0]?.n ?? 0);
}
