import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';

/*
 * THE edit rule of the field editor:
 *
 *   A user may edit a field in a context when a grant of that field reaches the user (granted to its name,
 *   or to one of its groups) and the grant is global (no context) or on that context.
 *   Administrators need grants like anyone (fieldeditor-api.md, Authentication 3).
 *
 * It is stated once, in SQL (migrations/20261128200000_option_write_functions.ts): `ap_grants_reaching` and
 * `ap_grant_covers`. The readers here call those functions inside their own statements (the scope query of
 * U3, U15 and the option endpoints, the field lists U1, the contexts of U2), and so does every write's
 * decision, `ap_lock_and_decide`, which takes the grant and membership rows FOR SHARE after the list lock
 * (so no write commits after a revocation has answered). Change the rule there and every endpoint follows.
 */

type Principal = Pick<AuthUser, 'id' | 'name'>;
/** The user's key, as grants store it (principal_key is the name in lower case, computed by the same JS). */
export const userKeyOf = (user: Principal) => user.name.toLowerCase();

/** Restricts a `field_grants as g` query to the grants that reach this user: to its name or to one of its groups. */
export function grantsReaching(user: Principal) {
  return (w: Knex.QueryBuilder) => w.whereRaw('g.id in (select r.id from ap_grants_reaching(?, ?) r)', [user.id, userKeyOf(user)]);
}

/** Grants that reach the user on the field `fieldSql` (a column such as `f.id`): any of them opens the field. */
export const grantsOnField = (q: Knex, user: Principal, fieldSql: string) =>
  q('field_grants as g').select(q.raw('1')).whereRaw('g.field_id = ??', [fieldSql]).andWhere(grantsReaching(user));

/** Of those, the ones that cover the context `contextSql` (a column such as `c.id`): they allow editing it. */
export const grantsCoveringContext = (q: Knex, user: Principal, fieldSql: string, contextSql: string) =>
  grantsOnField(q, user, fieldSql).andWhereRaw('ap_grant_covers(g.context_id, ??)', [contextSql]);

/** Subquery: ids of the fields on which the user holds any grant (U1's list). */
export const fieldIdsReaching = (q: Knex, user: Principal) => q('field_grants as g').select('g.field_id').where(grantsReaching(user));

/** Which contexts of a field the user may edit: none, all of them (a global grant), or those listed. */
export type ReachableContexts = { kind: 'none' } | { kind: 'all' } | { kind: 'some'; ids: ReadonlySet<number> };

export async function reachableContexts(q: Knex, user: Principal, fieldId: number): Promise<ReachableContexts> {
  const rows = (await q('field_grants as g').distinct('g.context_id').where('g.field_id', fieldId).andWhere(grantsReaching(user))) as {
    context_id: number | null;
  }[];
  if (rows.length === 0) return { kind: 'none' };
  if (rows.some((r) => r.context_id === null)) return { kind: 'all' };
  return { kind: 'some', ids: new Set(rows.map((r) => r.context_id as number)) };
}
