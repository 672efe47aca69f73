import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { contextNotFound, fieldNotFound, fieldPermissionDenied } from '../shared/fieldeditor.errors.ts';
import { userKeyOf } from './edit-rule.repository.ts';
import type { ScopeIds } from './ids.ts';
import { scopeOfDecidedRow, type EditableScope } from './scope.ts';
import type { ScopeRow } from './scope.repository.ts';

/**
 * A write's right, decided inside the write: `ap_lock_and_decide` locks the sibling list the path names (the top
 * level: `parentId` null), then decides under that lock (why, and how: its comment in
 * migrations/20261128200000_option_write_functions.ts). Refusals come back as SQLSTATEs of class AP (`decisionRefusal`).
 */
export async function lockAndDecide(trx: Knex.Transaction, user: AuthUser, ids: ScopeIds, parentId: number | null): Promise<EditableScope> {
  try {
    const { rows } = (await trx.raw('select * from ap_lock_and_decide(?, ?, ?, ?, ?)', lockArgs(user, ids, parentId))) as { rows: ScopeRow[] };
    return scopeOfDecidedRow(rows[0]!);
  } catch (err) {
    throw decisionRefusal(err, ids) ?? err;
  }
}

/** The bindings every write function starts with: field, context (null: default), parent, user id and key. */
export const lockArgs = (user: AuthUser, ids: ScopeIds, parentId: number | null) =>
  [ids.fieldId, ids.context === 'default' ? null : ids.context, parentId, user.id, userKeyOf(user)] as const;

/** The documented answer of a refusal raised by `ap_lock_and_decide` (undefined: not one of those). */
export function decisionRefusal(err: unknown, ids: ScopeIds): Error | undefined {
  switch ((err as { code?: unknown } | null)?.code) {
    case 'AP002':
      return fieldNotFound();
    case 'AP001':
      return fieldPermissionDenied();
    case 'AP404':
      return contextNotFound(String(ids.context));
    default:
      return undefined;
  }
}
