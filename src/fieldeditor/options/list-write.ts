import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { contextNotFound } from '../fieldeditor.errors.ts';
import type { ScopeIds } from '../access/ids.ts';
import type { EditableScope } from '../access/scope.ts';
import { lockListAt } from './options.repository.ts';

/**
 * The first two steps of every option, child-option and default write, inside its transaction and in this
 * order: the lock of the list the path names (top-level list: `parentId` null), then the caller's right,
 * decided with that transaction (FieldAccess.editable takes the grant and membership rows FOR SHARE). A write
 * that waited for a busy list thus decides on the grants as they are once it holds the lock, and a revocation
 * that comes later waits for the write to commit: no write commits after a revocation has answered.
 * Every writer takes the list lock before the grant rows, so two writes never wait on each other crosswise.
 */
export async function lockListAndDecide(
  trx: Knex.Transaction,
  access: FieldAccess,
  user: AuthUser,
  ids: ScopeIds,
  parentId: number | null,
): Promise<EditableScope> {
  // Undefined when the path names no context of this field: nothing is locked, and the decision below answers
  // the documented error (403002 no field, 403001 no grant, 404001 no context), in the documented order.
  const locked = await lockListAt(trx, ids.fieldId, ids.context, parentId);
  const scope = await access.editable(trx, user, ids);
  // The context appeared between the two statements (created meanwhile): answered as it was at the lock.
  if (locked !== scope.context.id) throw contextNotFound(String(ids.context));
  return scope;
}
