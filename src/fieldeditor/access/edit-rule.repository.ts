import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';

/*
 * THE edit rule of the field editor, and the only place that states it:
 *
 *   A user may edit a field in a context when a grant of that field reaches the user (granted to its name,
 *   or to one of its groups) and the grant is global (no context) or on that context.
 *   Administrators need grants like anyone (fieldeditor-api.md, Authentication 3).
 *
 * It is expressed as SQL fragments, so that every reader applies it inside its own statement: the scope
 * query of U3, U15 and the option endpoints (scope.repository.ts), the field lists U1 (fields/field-list.repository.ts),
 * and the contexts of U2 (`reachableContexts`). Change the rule here and every endpoint follows.
 *
 * A write decides with `lock` set, inside its own transaction: the grant rows and group memberships its
 * decision rests on are then taken FOR SHARE, so a revocation (a grant deleted, a membership removed, a user or
 * group deleted) either committed before the decision and is seen by it, or waits until the write has
 * committed. Either way no write commits after the revocation has answered.
 */

/** Subquery: lower-case names of the groups `userId` belongs to (with `lock`, the memberships it read are locked). */
const groupKeysOf = (q: Knex, userId: number, lock: boolean) => {
  const keys = q('group_members as gm').join('groups as gr', 'gr.id', 'gm.group_id').where('gm.user_id', userId).select('gr.name_key');
  return lock ? keys.forShare('gm') : keys;
};

/** Restricts a `field_grants as g` query to the grants that reach this user: to its name or to one of its groups. */
export function grantsReaching(q: Knex, user: Pick<AuthUser, 'id' | 'name'>, lock = false) {
  return (w: Knex.QueryBuilder) =>
    w
      .where((u) => u.where('g.principal_type', 'user').andWhere('g.principal_key', user.name.toLowerCase()))
      .orWhere((gq) => gq.where('g.principal_type', 'group').whereIn('g.principal_key', groupKeysOf(q, user.id, lock)));
}

/**
 * Grants that reach the user on the field `fieldSql` (a column such as `f.id`): any of them opens the field.
 * With `lock` (a write's decision), the grant rows read are taken FOR SHARE, and so are the memberships.
 */
export const grantsOnField = (q: Knex, user: Pick<AuthUser, 'id' | 'name'>, fieldSql: string, lock = false) => {
  const grants = q('field_grants as g').select(q.raw('1')).whereRaw('g.field_id = ??', [fieldSql]).andWhere(grantsReaching(q, user, lock));
  return lock ? grants.forShare('g') : grants;
};

/** Of those, the ones that cover the context `contextSql` (a column such as `c.id`): they allow editing it. */
export const grantsCoveringContext = (q: Knex, user: Pick<AuthUser, 'id' | 'name'>, fieldSql: string, contextSql: string, lock = false) =>
  grantsOnField(q, user, fieldSql, lock).andWhere((w) => w.whereNull('g.context_id').orWhereRaw('g.context_id = ??', [contextSql]));

/** Subquery: ids of the fields on which the user holds any grant (U1's list). */
export const fieldIdsReaching = (q: Knex, user: Pick<AuthUser, 'id' | 'name'>) =>
  q('field_grants as g').select('g.field_id').where(grantsReaching(q, user));

/** Which contexts of a field the user may edit: none, all of them (a global grant), or those listed. */
export type ReachableContexts = { kind: 'none' } | { kind: 'all' } | { kind: 'some'; ids: ReadonlySet<number> };

export async function reachableContexts(q: Knex, user: Pick<AuthUser, 'id' | 'name'>, fieldId: number): Promise<ReachableContexts> {
  const rows = (await q('field_grants as g').distinct('g.context_id').where('g.field_id', fieldId).andWhere(grantsReaching(q, user))) as {
    context_id: number | null;
  }[];
  if (rows.length === 0) return { kind: 'none' };
  if (rows.some((r) => r.context_id === null)) return { kind: 'all' };
  return { kind: 'some', ids: new Set(rows.map((r) => r.context_id as number)) };
}
