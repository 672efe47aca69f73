import type { Knex } from 'knex';
import type { DbKind } from '../../platform/db/knex.ts';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import type { PeekedHit } from '../../platform/http/fast-path.ts';
import type { ContextRef, FieldRef } from '../../tracker/refs.ts';
import { reachableContexts, type ReachableContexts } from './edit-rule.repository.ts';
import { loadContext, loadField } from './fields.repository.ts';
import { parseFieldId, parseScopeIds, type ScopeIds } from './ids.ts';
import { resolveEditableScope, scopeOfRow, type EditableScope } from './scope.ts';
import { rightGuardQuery, scopeRowQuery, type ScopeRow } from './scope.repository.ts';
import { StatementTemplates, type CompiledStatement } from '../../platform/db/statement-template.ts';
import { ScopeCache } from './scope.cache.ts';

type ScopePath = ScopeIds | { rawFieldId: string; rawContextId: string };
const idsOf = (path: ScopePath): ScopeIds => ('rawFieldId' in path ? parseScopeIds(path.rawFieldId, path.rawContextId) : path);

/**
 * What the field editor asks before it acts: which field a path names (administration), and which field and
 * context a user may edit (the user endpoints): for a read from the node's scope cache (`readable`), for a
 * write inside its own transaction (`editable`). Answers with the field editor's errors.
 */
export class FieldAccess {
  private readonly scopes: ScopeCache;
  /** The write right's scope statement, compiled once per shape. */
  private readonly templates: StatementTemplates;

  constructor(
    private readonly knex: Knex,
    private readonly kind: DbKind,
    changes: ChangeFeed,
  ) {
    this.scopes = new ScopeCache(changes);
    this.templates = new StatementTemplates(knex);
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
   * The field and context a write addresses, if the user may edit them (edit-rule.repository.ts), decided INSIDE the
   * write's transaction `trx`, after the write took its list lock: the grant and membership rows the decision
   * rests on are taken FOR SHARE, so a revocation racing the write either is seen here (403) or waits until
   * the write has committed. The ids were parsed by the caller (a bad id is a 400 before any query).
   */
  editable(trx: Knex.Transaction, user: AuthUser, ids: ScopeIds): Promise<EditableScope> {
    return resolveEditableScope(trx, this.kind, user, ids, true);
  }

  /**
   * `editable` in two halves, for a write that sends the statement itself (with its list lock, in one flight:
   * list-write.ts): the unsent statement, taking the same rows FOR SHARE, and the decision on its rows.
   */
  editableStatement(user: AuthUser, ids: ScopeIds): { statement: CompiledStatement; decide(rows: unknown[]): EditableScope } {
    const { context } = ids;
    const params = { userId: user.id, userName: user.name, fieldId: ids.fieldId, contextId: context === 'default' ? 0 : context };
    const statement = this.templates.compile(context === 'default' ? 'scope-default' : 'scope-id', params, (knex, p) =>
      scopeRowQuery(knex, { id: p.userId, name: p.userName }, { fieldId: p.fieldId, context: context === 'default' ? 'default' : p.contextId }, true),
    );
    return { statement, decide: (rows) => scopeOfRow(rows[0] as ScopeRow | undefined, ids) };
  }

  /**
   * A statement that checks, inside a write's transaction and after its list lock, that the user may still edit
   * `expected` (a decision taken earlier, under an earlier lock): the same scope query, taking the same rows FOR
   * SHARE, must find the same field type and context and a grant that covers it. It fails (division by zero)
   * otherwise, which aborts the transaction: a write sent behind it in the same flight is then not written, and
   * the writer decides again the usual way (option-writer.ts, a predicted write).
   */
  rightGuardStatement(user: AuthUser, ids: ScopeIds, expected: EditableScope): CompiledStatement {
    const { context } = ids;
    const params = {
      userId: user.id,
      userName: user.name,
      fieldId: ids.fieldId,
      contextId: context === 'default' ? 0 : context,
      expectedContext: expected.context.id,
      expectedType: expected.field.typeKey,
    };
    return this.templates.compile(context === 'default' ? 'guard-default' : 'guard-id', params, (knex, p) =>
      rightGuardQuery(knex, { id: p.userId, name: p.userName }, { fieldId: p.fieldId, context: context === 'default' ? 'default' : p.contextId }, {
        contextId: p.expectedContext,
        typeKey: p.expectedType,
      }),
    );
  }

  /**
   * The same decision for a read, answered from this node's scope cache (cleared cluster-wide by every
   * grant, field, context, user, group and settings change): path values (parsed here), or ids the caller
   * parsed already (when more path ids must be checked before any query). Writes use `editable`.
   */
  readable(user: AuthUser, path: ScopePath): Promise<EditableScope> {
    const ids = idsOf(path);
    return this.scopes.resolve(user, ids, () => resolveEditableScope(this.knex, this.kind, user, ids));
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
