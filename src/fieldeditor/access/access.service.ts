import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { PeekedHit } from '../../platform/http/fast-path.ts';
import type { ContextRef, FieldRef } from '../../tracker/refs.ts';
import { reachableContexts, type ReachableContexts } from './edit-rule.repository.ts';
import { loadContext, loadField } from './fields.repository.ts';
import { parseFieldId, parseScopeIds, type ScopeIds } from './ids.ts';
import { resolveEditableScope, type EditableScope } from './scope.ts';
import { lockAndDecide } from './write-decision.repository.ts';
import { ScopeCache } from './scope.cache.ts';

type ScopePath = ScopeIds | { rawFieldId: string; rawContextId: string };
const idsOf = (path: ScopePath): ScopeIds => ('rawFieldId' in path ? parseScopeIds(path.rawFieldId, path.rawContextId) : path);

/**
 * What the field editor asks before it acts: which field a path names (administration), and which field and
 * context a user may edit (the user endpoints): for a read from the node's scope cache (`readable`), for a
 * write inside its own transaction (`lockAndDecide`). Answers with the field editor's errors.
 */
export class FieldAccess {
  private readonly scopes: ScopeCache;

  constructor(
    private readonly knex: Knex,
    changes: ChangeFeed,
  ) {
    this.scopes = new ScopeCache(changes);
  }

  /** The field of a {customFieldId} path value (administration: no grant needed). */
  field(rawFieldId: string, q: Knex = this.knex): Promise<FieldRef> {
    return loadField(q, parseFieldId(rawFieldId));
  }

  /** A context of that field by a {contextId} path value (`default` or an id). */
  context(field: FieldRef, rawContextId: string, q: Knex = this.knex): Promise<ContextRef> {
    return loadContext(q, field, rawContextId);
  }

  /**
   * The field and context a write addresses, if the user may edit them, decided INSIDE the write's transaction
   * `trx` after it took the lock of the list `parentId` names (write-decision.repository.ts). The ids were parsed by the
   * caller (a bad id is a 400 before any query).
   */
  lockAndDecide(trx: Knex.Transaction, user: AuthUser, ids: ScopeIds, parentId: number | null): Promise<EditableScope> {
    return lockAndDecide(trx, user, ids, parentId);
  }

  /** The same decision without a lock, for a write refused before it writes anything (a bad body: 403 before 400). */
  decideOnly(user: AuthUser, ids: ScopeIds): Promise<EditableScope> {
    return resolveEditableScope(this.knex, user, ids);
  }

  /**
   * The same decision for a read, answered from this node's scope cache (cleared cluster-wide by every
   * grant, field, context, user, group and settings change): path values (parsed here), or ids the caller
   * parsed already (when more path ids must be checked before any query). Writes use `lockAndDecide`.
   */
  readable(user: AuthUser, path: ScopePath): Promise<EditableScope> {
    const ids = idsOf(path);
    return this.scopes.resolve(user, ids, () => resolveEditableScope(this.knex, user, ids));
  }

  /** `readable`'s cached grant, when there is one, for the option-list fast path (see ScopeCache.peekGranted). */
  peekReadable(user: AuthUser, ids: ScopeIds): PeekedHit<EditableScope> | undefined {
    return this.scopes.peekGranted(user, ids);
  }

  /** The contexts of a field the user may edit (U2). */
  reachableContexts(user: AuthUser, fieldId: number): Promise<ReachableContexts> {
    return reachableContexts(this.knex, user, fieldId);
  }
}
