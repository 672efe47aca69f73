import type { Knex } from 'knex';

export type PrincipalType = 'user' | 'group';

export interface GrantRow {
  field_id: number;
  context_id: number | null;
  principal_type: PrincipalType;
  principal_name: string;
}

export interface Principal {
  type: PrincipalType;
  name: string;
}

const COLUMNS = ['field_id', 'context_id', 'principal_type', 'principal_name'];

/** Table access for field_grants. `q` is the root knex or a transaction. */
export const grantsRepository = {
  /** Every grant of these fields (global and per context), users before groups, by name. */
  ofFields(q: Knex, fieldIds: readonly number[]): Promise<GrantRow[]> {
    if (fieldIds.length === 0) return Promise.resolve([]);
    return q('field_grants')
      .select(COLUMNS)
      .whereIn('field_id', fieldIds)
      .orderBy([{ column: 'field_id' }, { column: 'principal_type', order: 'desc' }, { column: 'principal_key' }]);
  },

  /** Grants of one field: only global ones (`contextId` null), or only those on contexts (`'contexts'`). */
  async ofField(q: Knex, fieldId: number, scope: 'global' | 'contexts'): Promise<GrantRow[]> {
    const b = q('field_grants').select(COLUMNS).where({ field_id: fieldId });
    return (scope === 'global' ? b.whereNull('context_id') : b.whereNotNull('context_id')).orderBy([
      { column: 'principal_type', order: 'desc' },
      { column: 'principal_key' },
    ]);
  },

  /** Adds grants; one that exists already (same principal without regard to case) is left as it is. */
  async add(q: Knex, fieldId: number, contextId: number | null, principals: readonly Principal[]): Promise<void> {
    if (principals.length === 0) return;
    const rows = principals.map((p) => ({
      field_id: fieldId,
      context_id: contextId,
      principal_type: p.type,
      principal_name: p.name,
      principal_key: p.name.toLowerCase(),
    }));
    // The unique index is on an expression (coalesce(context_id, 0)), so the conflict target names it.
    const insert = q('field_grants').insert(rows).toSQL();
    await q.raw(`${insert.sql} on conflict (field_id, (coalesce(context_id, 0)), principal_type, principal_key) do nothing`, insert.bindings);
  },

  /** Whether this grant exists (the same principal without regard to case, on the same context or globally). */
  async exists(q: Knex, fieldId: number, contextId: number | null, p: Principal): Promise<boolean> {
    const row = await q('field_grants')
      .where({ field_id: fieldId, principal_type: p.type, principal_key: p.name.toLowerCase() })
      .andWhere((w) => (contextId === null ? w.whereNull('context_id') : w.where({ context_id: contextId })))
      .first('id');
    return row !== undefined;
  },

  async remove(q: Knex, fieldId: number, contextId: number | null, p: Principal): Promise<void> {
    const b = q('field_grants').where({ field_id: fieldId, principal_type: p.type, principal_key: p.name.toLowerCase() });
    await (contextId === null ? b.whereNull('context_id') : b.where({ context_id: contextId })).del().returning('id');
  },

  /** Removes every global grant of the field, or every context grant of it. */
  async clear(q: Knex, fieldId: number, scope: 'global' | 'contexts'): Promise<void> {
    const b = q('field_grants').where({ field_id: fieldId });
    await (scope === 'global' ? b.whereNull('context_id') : b.whereNotNull('context_id')).del().returning('id');
  },

  /** A deleted user's or group's grants (a user's groups keep theirs). Returns how many were removed. */
  async removePrincipal(q: Knex, type: PrincipalType, name: string): Promise<number> {
    return (await this.removePrincipalGrants(q, type, name)).length;
  },

  /** The same, answering the grants removed (the event log records them). */
  removePrincipalGrants(q: Knex, type: PrincipalType, name: string): Promise<{ field_id: number; context_id: number | null }[]> {
    return q('field_grants').where({ principal_type: type, principal_key: name.toLowerCase() }).del().returning(['field_id', 'context_id']);
  },
};
