import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { ScopeIds } from '../access/ids.ts';
import type { EditableScope } from '../access/scope.ts';

/**
 * The decision each user last got under a list's lock, per field and context, to predict the next one
 * (option-writer.ts, predicted writes). A prediction is never trusted: the write that uses it checks it again in
 * its own transaction, after the lock (FieldAccess.rightGuardStatement), and decides the usual way when it no
 * longer holds. So a stale entry costs one attempt, never a wrong answer; the map is only bounded.
 */
export class WritePredictions {
  private readonly scopes = new Map<string, EditableScope>();

  constructor(private readonly max = 10_000) {}

  get(user: AuthUser, ids: ScopeIds): EditableScope | undefined {
    return this.scopes.get(keyOf(user, ids));
  }

  remember(user: AuthUser, ids: ScopeIds, scope: EditableScope): void {
    if (this.scopes.size >= this.max) this.scopes.clear();
    this.scopes.set(keyOf(user, ids), scope);
  }

  forget(user: AuthUser, ids: ScopeIds): void {
    this.scopes.delete(keyOf(user, ids));
  }
}

/** The decision depends on the user's id and name (memberships are read by id, user grants by name). */
const keyOf = (user: AuthUser, ids: ScopeIds) => `${user.id}/${user.name}/${ids.fieldId}/${ids.context}`;
