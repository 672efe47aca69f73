import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { grantsCoveringContext, grantsOnField } from './edit-rule.repository.ts';
import type { ScopeIds } from './ids.ts';

/** The one row of the scope query: the field, the context the path names (null members: none), and the two grant tests. */
export interface ScopeRow {
  f_id: number;
  f_name: string;
  f_description: string;
  f_type_key: string;
  c_id: number | null;
  c_field_id: number;
  c_name: string;
  c_description: string;
  c_is_default: boolean;
  any_grant: boolean;
  may_edit: boolean;
}

/**
 * The scope query of scope.ts, in ONE statement: the field, the context (`default` or an id of this field),
 * whether any grant reaches the user and whether one covers this context (edit-rule.repository.ts).
 * Undefined when the field does not exist. A write decides with `ap_lock_and_decide` instead (write-decision.repository.ts).
 */
export async function selectScopeRow(knex: Knex, user: AuthUser, ids: ScopeIds): Promise<ScopeRow | undefined> {
  return ((await scopeRowQuery(knex, user, ids)) as ScopeRow[])[0];
}

/** `selectScopeRow`'s statement, unsent: its one row (none when the field does not exist). */
export function scopeRowQuery(knex: Knex, user: Pick<AuthUser, 'id' | 'name'>, ids: ScopeIds): Knex.QueryBuilder {
  const { fieldId, context } = ids;
  return knex('custom_fields as f')
    .leftJoin('field_contexts as c', (j) => {
      j.on('c.field_id', 'f.id');
      if (context === 'default') j.andOnVal('c.is_default', true);
      else j.andOnVal('c.id', context);
    })
    .where('f.id', fieldId)
    .limit(1)
    .select(
      'f.id as f_id',
      'f.name as f_name',
      'f.description as f_description',
      'f.type_key as f_type_key',
      'c.id as c_id',
      'c.field_id as c_field_id',
      'c.name as c_name',
      'c.description as c_description',
      'c.is_default as c_is_default',
      knex.raw('exists ? as any_grant', [grantsOnField(knex, user, 'f.id')]),
      knex.raw('exists ? as may_edit', [grantsCoveringContext(knex, user, 'f.id', 'c.id')]),
    );
}
