import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { escapeLike } from '../../directory/users.repository.ts';
import { FIELD_COLUMNS, type FieldRow } from '../../tracker/fields.repository.ts';
import { fieldIdsReaching } from '../access/edit-rule.repository.ts';
import type { PageRequest } from './fields.schemas.ts';

/**
 * Set-based field lists for A1 and U1: a count and one page query (never all fields in memory), ordered by
 * the (name_key, id) index. `forUser` narrows to fields on which the user holds any grant (edit-rule.repository.ts):
 * one semi-join over the grants' principal index.
 */
function base(q: Knex, filter: string, forUser?: AuthUser) {
  const b = q('custom_fields as f');
  // The search table (trigger-maintained, rebuilt by JobIndexCustomFieldSearchTable; pg_trgm on PostgreSQL).
  if (filter !== '') {
    b.whereIn('f.id', q('field_search').select('field_id').whereRaw("name_key like ? escape '\\'", [`%${escapeLike(filter.toLowerCase())}%`]));
  }
  if (forUser) b.whereIn('f.id', fieldIdsReaching(q, forUser));
  return b;
}

export async function pageOfFields(q: Knex, page: PageRequest, forUser?: AuthUser): Promise<{ total: number; rows: FieldRow[] }> {
  const dir = page.descending ? 'desc' : 'asc';
  const [countRow, rows] = await Promise.all([
    base(q, page.filter, forUser).first(q.raw('count(*)::int as n')) as Promise<{ n: number } | undefined>,
    page.maxResults === 0
      ? Promise.resolve([] as FieldRow[])
      : (base(q, page.filter, forUser)
          .select(FIELD_COLUMNS.map((c) => `f.${c}`))
          .orderBy([{ column: 'f.name_key', order: dir }, { column: 'f.id', order: dir }])
          .offset(page.startAt)
          .limit(page.maxResults) as Promise<FieldRow[]>),
  ]);
  return { total: Number(countRow?.n ?? 0), rows };
}

/** The legacy unpaginated lists: every field (A1) or every field the user may edit (U1), by name. */
export function allFields(q: Knex, forUser?: AuthUser): Promise<FieldRow[]> {
  return base(q, '', forUser)
    .select(FIELD_COLUMNS.map((c) => `f.${c}`))
    .orderBy([{ column: 'f.name_key' }, { column: 'f.id' }]) as Promise<FieldRow[]>;
}
