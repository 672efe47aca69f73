import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { senderOf } from '../../platform/db/send-now.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { contextNotFound } from '../fieldeditor.errors.ts';
import type { ScopeIds } from '../access/ids.ts';
import type { EditableScope } from '../access/scope.ts';
import { lockListAtStatement } from './options.repository.ts';

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
  const { decision } = await lockListDeciding(trx, access, user, ids, parentId);
  return decision;
}

/**
 * Both steps in one flight on PostgreSQL (send-now.ts): the lock statement is sent, and the decision's statement
 * right behind it without waiting for the lock. The database runs the second only once the first holds the lock,
 * and in its own snapshot (READ COMMITTED takes one per statement), so the order above holds, while the list
 * stays locked for one round trip less. Answers the locked context's id (undefined when the path names no
 * context of the field: nothing is locked) and the caller's decision, as a promise the caller awaits: a group of
 * writes answers each refusal to its own request (option-writer.ts).
 */
export async function lockListDeciding(
  trx: Knex.Transaction,
  access: FieldAccess,
  user: AuthUser,
  ids: ScopeIds,
  parentId: number | null,
): Promise<{ locked: number | undefined; decision: Promise<EditableScope> }> {
  const sender = await senderOf(trx);
  const { statement, decide } = access.editableStatement(user, ids);
  // One write to the socket on PostgreSQL (with the transaction's BEGIN in front: commit-behind.ts).
  const [lock, row] = sender.together(() => [
    sender.send<{ context_id: number }>(lockListAtStatement(ids.fieldId, ids.context, parentId)),
    sender.send<unknown>(statement),
  ]);
  // Undefined when the path names no context of this field: the decision answers the documented error
  // (403002 no field, 403001 no grant, 404001 no context), in the documented order.
  const locked = (await lock)[0]?.context_id;
  const decision = row.then((rows) => lockedScope(decide(rows), ids, locked));
  decision.catch(() => undefined); // the same: the caller's await sees the refusal
  return { locked, decision };
}

/**
 * The decision alone, for a transaction that already holds the list lock (`locked`: the context id the lock
 * statement answered): a group of writes decides the right of each further caller this way.
 */
export async function decideUnderLock(
  trx: Knex.Transaction,
  access: FieldAccess,
  user: AuthUser,
  ids: ScopeIds,
  locked: number | undefined,
): Promise<EditableScope> {
  return lockedScope(await access.editable(trx, user, ids), ids, locked);
}

/** The context appeared between the two statements (created meanwhile): answered as it was at the lock. */
function lockedScope(scope: EditableScope, ids: ScopeIds, locked: number | undefined): EditableScope {
  if (locked !== scope.context.id) throw contextNotFound(String(ids.context));
  return scope;
}
