import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { CachedBody } from '../../platform/http/cached-body.ts';
import type { PeekedHit } from '../../platform/http/fast-path.ts';
import { FIELD_OPTIONS_TOPIC } from '../fieldeditor.topics.ts';
import type { ContextRef, FieldRef } from '../../tracker/refs.ts';
import { isCascading, isEditableSelect, isMultiLevel } from '../access/field-kinds.ts';
import { actorOf, type Actor } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import type { ScopeIds } from '../access/ids.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { createOptionBody, moveBody, sortBody, updateOptionBody } from './options.schemas.ts';
import { lockListAndDecide } from './list-write.ts';
import { optionTarget, toOptionJson, type OptionChange, type OptionJson, type OptionRow } from './options.model.ts';
import { applyBatch } from './options-batch.ts';
import { parseBatch } from './options-batch.schemas.ts';
import { randomUUID } from 'node:crypto';
import * as repo from './options.repository.ts';
import { OptionListCache } from './options.cache.ts';
import { readDefaultOptions } from './defaults.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { EventLog } from '../maintenance/event-log.ts';
import type { EntryFill, EventEntry } from '../maintenance/event-log.repository.ts';
import { sortByValue } from './sort.ts';
import { afterNotSibling, duplicateValue, notInList, optionNotFound, unsupportedFieldType } from './options.errors.ts';
import type { AppError } from '../../platform/http/app-error.ts';

/** Which list a request addresses: the top-level options of a context, or the children of `parentId`. */
export interface OptionScope {
  field: FieldRef;
  context: ContextRef;
  parentId: number | null;
}

/** Which list a write addresses, as its path names it: the field and context ids (parsed), and the parent of a child list. */
export interface ListPath {
  ids: ScopeIds;
  parentId: number | null;
}

/**
 * A write once its right is decided: the value it stores (for the duplicate answer), a rule decided inside it,
 * and the operation. `write` asks for it with the decided scope, so a bad body is a 400 only for a caller
 * that may edit the list (a caller without a grant gets 403001 whatever it sent, as the contract orders them).
 */
interface WritePlan<T> {
  /** The option value written, when the write sets one: a unique-index refusal is then answered as a duplicate. */
  value?: string;
  /** The option being renamed (a sibling with the same value other than itself is the duplicate). */
  exceptId?: number;
  /** A rule decided inside the write's transaction, after the list lock (the delete rule). */
  guard?: (trx: Knex.Transaction) => Promise<void>;
  run: (trx: Knex.Transaction, list: repo.ListKey, log: Logged) => Promise<Done<T>>;
}
type Change = OptionChange;
/**
 * What an operation answers: its result and change, and `recorded` when it already wrote the change's entry
 * itself (riding on its last statement, see `Logged.along`); otherwise `write` appends the entry.
 */
type Done<T> = { result: T; change: Change | Change[]; recorded?: boolean; operationId?: string };
/** Lets an operation write its entry in the same statement as its last read (one round trip less per write). */
interface Logged {
  /** Runs `query` (one row) and appends the entry of `change` in the same statement, `fill` taking members from that row. */
  along<R>(query: Knex.QueryBuilder | Knex.Raw, change: Change, fill: EntryFill): Promise<R[]>;
}

/** Why a scope has no option list this service manages (a field type without options, or without children). */
export function fieldTypeRefusal(scope: OptionScope): AppError | undefined {
  const f = scope.field;
  if (!isEditableSelect(f)) return unsupportedFieldType('customFieldId', `The field type ${f.fieldType} has no options that the field editor manages.`);
  if (scope.parentId !== null && !isCascading(f)) {
    return unsupportedFieldType('customFieldId', `Child options exist only on cascading select fields; this field is a ${f.fieldType}.`);
  }
  return undefined;
}

const listOf = (s: OptionScope): repo.ListKey => ({ contextId: s.context.id, parentId: s.parentId });
const idName = (s: OptionScope) => (s.parentId === null ? 'optionId' : 'childOptionId');
const withParent = (o: OptionRow, sequence: number) => ({ ...toOptionJson(o, sequence), parentId: o.parent_id });
/** The event-log kind of a change; an update is named by what actually changed (both, or nothing: `option.updated`). */
const logKind = (change: Change): string => {
  if (change.action !== 'option.updated') return change.action;
  const before = change.before as OptionJson;
  const after = change.after as OptionJson;
  const renamed = before.optionvalue !== after.optionvalue;
  const toggled = before.disabled !== after.disabled;
  if (renamed && !toggled) return 'option.renamed';
  if (toggled && !renamed) return after.disabled ? 'option.disabled' : 'option.enabled';
  return 'option.updated';
};
const optionIdOf = (after: unknown): number | null => {
  const id = (after as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
};
/** The sibling-value unique index refused a row (the constraint name is checked when the driver reports it). */
const isDuplicateValue = (err: unknown) => {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === 'field_options_sibling_value');
};

/**
 * Rules of option lists (U4–U14, C1–C6). Reads get the scope the caller may read (FieldAccess.readable);
 * every write takes the caller and the path's ids and is one transaction that starts by locking its sibling
 * list (see options.repository.ts), then decides the caller's right under that lock (list-write.ts), writes
 * as few rows as the operation needs (order lives in a
 * sparse `position`; the dense `sequence` of every answer is the rank), records its change in the event log in
 * the same transaction, and answers after every node dropped its cached lists and defaults (FIELD_OPTIONS_TOPIC).
 */
export class OptionsService {
  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
    private readonly settings: SettingsService,
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
    private readonly cache = new OptionListCache(changes),
  ) {}

  /**
   * U4/U9/C1: the list as JSON, from this node's list cache (see options.cache.ts). A child list is
   * remembered only once its parent was found, so an unknown parent is asked of the database each time.
   */
  async listJson(scope: OptionScope): Promise<CachedBody> {
    this.checkFieldType(scope);
    const list = listOf(scope);
    return this.cache.list(list.contextId, list.parentId, async () => {
      if (scope.parentId !== null) await this.loadParent(this.knex, scope, false);
      return new CachedBody((await repo.listJson(this.knex, list)).json);
    });
  }

  /**
   * `listJson`'s answer when it is in this node's list cache and usable now, uncounted until `confirm`; undefined
   * when `listJson` would throw (a field type without options here) or would read the database.
   */
  peekCachedList(scope: OptionScope): PeekedHit<CachedBody> | undefined {
    if (fieldTypeRefusal(scope)) return undefined;
    const list = listOf(scope);
    return this.cache.peek(list.contextId, list.parentId);
  }

  /** U5/U10/C2: appends a new option; a sent `id` or `sequence` is ignored. */
  async create(user: AuthUser, at: ListPath, body: unknown): Promise<OptionJson> {
    return this.write(user, at, (scope) => {
      const input = parseWith(createOptionBody, body, 'body');
      const [value, disabled] = [input.optionvalue, input.disabled ?? false];
      // A sibling with the same value is caught by the unique index (see `write`): no extra query.
      return {
        value,
        run: async (trx, list, log) => {
          // One statement: the insert answers the row and its rank, and carries the entry, whose id and
          // sequence are filled from that row (the list lock is held for the lock, the right and this).
          const change: Change = { action: 'option.created', before: null, after: { optionvalue: value, disabled, parentId: list.parentId } };
          const fill = { after: { id: 'id', sequence: 'n' }, target: { id: 'id' } };
          const [row] = await log.along<OptionRow & { n: number }>(repo.insertOptionQuery(trx, scope.field.id, list, value, disabled), change, fill);
          if (!row) throw new Error('insert returned no row');
          const json = toOptionJson(row, Number(row.n));
          return { result: json, change: { ...change, after: { ...json, parentId: row.parent_id } }, recorded: true };
        },
      };
    });
  }

  /** U6/U11/C3: renames and/or (dis)enables; absent members stay as they are. */
  async update(user: AuthUser, at: ListPath, id: number, body: unknown): Promise<OptionJson> {
    return this.write(user, at, (scope) => {
      const input = parseWith(updateOptionBody, body, 'body');
      const patch = { value: input.optionvalue ?? undefined, disabled: input.disabled ?? undefined };
      return {
        value: patch.value,
        exceptId: id,
        run: async (trx, _list, log) => {
          const before = await this.loadInList(trx, scope, id);
          const row = await repo.updateOption(trx, id, patch);
          const fill = { before: { sequence: 'n' }, after: { sequence: 'n' } };
          const [rank] = await log.along<{ n: number }>(repo.rankQuery(trx, row), { action: 'option.updated', before: withParent(before, 0), after: withParent(row, 0) }, fill);
          const sequence = Number(rank?.n ?? 0);
          return {
            result: toOptionJson(row, sequence),
            change: { action: 'option.updated', before: withParent(before, sequence), after: withParent(row, sequence) },
            recorded: true,
          };
        },
      };
    });
  }

  /** U7/U12/C4: deletes the option with its children; it leaves any default that held it. */
  async remove(user: AuthUser, at: ListPath, id: number): Promise<{ id: number }> {
    const actor = actorOf(user);
    return this.write(user, at, (scope) => ({
      guard: (trx) => this.settings.checkMayDelete(trx, actor),
      run: async (trx) => {
        const option = await this.loadInList(trx, scope, id);
        const sequence = await repo.rankOf(trx, option);
        const defaultBefore = await readDefaultOptions(trx, scope.context.id);
        const subtree = isCascading(scope.field) ? await repo.subtreeIds(trx, id) : [id];
        await repo.deleteOption(trx, option);
        await repo.deleteListLocks(trx, scope.context.id, subtree);
        const defaultAfter = await readDefaultOptions(trx, scope.context.id);
        const defaultChanged = defaultAfter.length !== defaultBefore.length;
        const [idsBefore, idsAfter] = [defaultBefore.map((o) => o.id), defaultAfter.map((o) => o.id)];
        return {
          result: { id },
          change: {
            action: 'option.deleted',
            before: { ...withParent(option, sequence), deletedIds: subtree, ...(defaultChanged ? { defaultOptionIds: idsBefore } : {}) },
            after: defaultChanged ? { defaultOptionIds: idsAfter } : null,
          },
        };
      },
    }));
  }

  /** U8/U13/C5: `position: First`, or directly after a sibling (after itself: nothing changes). One row is written. */
  async move(user: AuthUser, at: ListPath, id: number, body: unknown): Promise<OptionJson> {
    return this.write(user, at, (scope) => {
      const move = parseWith(moveBody, body, 'body');
      return {
        run: async (trx, list, log) => {
          const afterId = 'afterId' in move ? move.afterId : undefined;
          const found = await repo.findOptions(trx, scope.context.id, afterId === undefined ? [id] : [id, afterId]);
          const option = this.inList(scope, id, found.find((o) => o.id === id));
          const target = afterId === undefined ? undefined : found.find((o) => o.id === afterId);
          if (afterId !== undefined && (!target || target.parent_id !== scope.parentId)) throw afterNotSibling(afterId, id);
          let row = option;
          if (target?.id !== option.id) {
            let position = await repo.positionAfter(trx, list, id, target?.position ?? null);
            if (position === undefined && target) {
              // No integer left between the two neighbours: spread the list out, then place it again.
              await repo.renumber(trx, list);
              const moved = await repo.findOption(trx, scope.context.id, target.id);
              position = await repo.positionAfter(trx, list, id, moved?.position ?? null);
            }
            if (position === undefined) throw new Error('no position after renumbering');
            row = await repo.updateOption(trx, id, { position });
          }
          const [ranks] = await log.along<{ before: number; after: number }>(
            repo.ranksAroundQuery(trx, row, Number(option.position), Number(row.position)),
            { action: 'option.moved', before: withParent(option, 0), after: withParent(row, 0) },
            { before: { sequence: 'before' }, after: { sequence: 'after' } },
          );
          const [before, after] = [Number(ranks?.before ?? 0), Number(ranks?.after ?? 0)];
          return {
            result: toOptionJson(row, after),
            change: { action: 'option.moved', before: withParent(option, before), after: withParent(row, after) },
            recorded: true,
          };
        },
      };
    });
  }

  /** U14/C6: locale-aware sort of one list; rewrites every `sequence` as 0..n-1 (which also repairs it). */
  async sort(user: AuthUser, at: ListPath, body: unknown): Promise<OptionJson | Record<string, never>> {
    return this.write(user, at, (scope) => {
      const spec = parseWith(sortBody, body, 'body');
      return {
        run: async (trx, list) => {
          const rows = await repo.listRows(trx, list);
          const sorted = sortByValue(rows, spec);
          await repo.writeOrder(trx, list, sorted.map((r) => r.id));
          const first = sorted[0];
          return {
            result: first ? toOptionJson(first, 0) : {},
            change: {
              action: 'option.sorted',
              before: null,
              after: { parentId: scope.parentId, count: rows.length, locale: spec.locale, strength: spec.strength, order: spec.order },
            },
          };
        },
      };
    });
  }

  /**
   * POST {list}/batch (issue 27): creates, updates and deletes of one list, all or nothing, in one write (the
   * list lock, the right, the delete rule when the batch deletes, then options-batch.ts); one event-log entry
   * per option changed, all with one operation id. Answers the list after the batch, in order.
   */
  async batch(user: AuthUser, at: ListPath, body: unknown): Promise<{ options: OptionJson[] }> {
    const actor = actorOf(user);
    return this.write(user, at, (scope) => {
      const { input, problems } = parseBatch(body);
      return {
        ...(input.delete.length > 0 ? { guard: (trx: Knex.Transaction) => this.settings.checkMayDelete(trx, actor) } : {}),
        run: async (trx, list) => {
          const { options, changes } = await applyBatch(trx, scope.field.id, list, input, problems);
          return { result: { options }, change: changes, operationId: randomUUID() };
        },
      };
    });
  }

  /**
   * One write, in one transaction: the list lock, the caller's right decided under it (list-write.ts), the
   * plan (its body parsed), the field-type check, the guard (a rule decided inside the write, taken after the
   * list lock so that every writer locks in the same order), the parent check, the operation, then its event.
   * The order of the answers is the contract's: 403001 before anything else is revealed, then the body (400),
   * the field type (400), the delete rule (403003), the parent (404).
   * A duplicate sibling value is refused by the unique index (race-proof, and no extra query on the
   * normal path); after the rollback it is answered as the documented 400 naming the existing option.
   */
  private async write<T>(user: AuthUser, at: ListPath, plan: (scope: OptionScope) => WritePlan<T>): Promise<T> {
    const actor = actorOf(user);
    let outcome: Done<T> | undefined;
    // A unique-index refusal whose sibling is gone once the transaction rolled back (a concurrent delete of it
    // or of its parent committed in between) is no duplicate any more: the write is tried once again.
    for (let attempt = 1; outcome === undefined; attempt++) {
      const tried: { scope?: OptionScope; how?: WritePlan<T> } = {};
      try {
        outcome = await this.attempt(user, actor, at, plan, tried);
      } catch (err) {
        const { scope, how } = tried;
        if (scope && how?.value !== undefined && isDuplicateValue(err)) {
          const existing = await repo.findSameValue(this.knex, listOf(scope), how.value, how.exceptId);
          if (existing !== undefined) throw duplicateValue(how.value, existing);
          if (attempt < 2) continue;
        }
        throw err;
      }
    }
    await this.changes.publish(FIELD_OPTIONS_TOPIC);
    return outcome.result;
  }

  /**
   * One transaction of `write`: the list lock and the right, the plan, the field type, the guard, the parent
   * check, the operation and its entry. `tried` receives the scope and plan (for the duplicate answer after a rollback).
   */
  private attempt<T>(
    user: AuthUser,
    actor: Actor,
    at: ListPath,
    plan: (scope: OptionScope) => WritePlan<T>,
    tried: { scope?: OptionScope; how?: WritePlan<T> },
  ): Promise<Done<T>> {
    return this.knex.transaction(async (trx) => {
      const { field, context } = await lockListAndDecide(trx, this.access, user, at.ids, at.parentId);
      const scope: OptionScope = { field, context, parentId: at.parentId };
      tried.scope = scope;
      const how = (tried.how = plan(scope));
      this.checkFieldType(scope);
      if (how.guard) await how.guard(trx);
      if (scope.parentId !== null) await this.loadParent(trx, scope, true);
      const entryOf = (change: Change) => this.entryOf(actor, scope, change);
      const log: Logged = { along: (query, change, fill) => this.eventLog.recordAlong(trx, query, entryOf(change), fill) };
      const done = await how.run(trx, listOf(scope), log);
      // The change's event-log entry, in its transaction: both commit or neither does (written here unless
      // the operation already wrote it with its last statement).
      if (!done.recorded) {
        const changes = Array.isArray(done.change) ? done.change : [done.change];
        await this.eventLog.record(trx, ...changes.map((c) => ({ ...entryOf(c), ...(done.operationId ? { operationId: done.operationId } : {}) })));
      }
      return done;
    });
  }

  /** The event-log entry of a change. */
  private entryOf(actor: Actor, scope: OptionScope, change: Change): EventEntry {
    return {
      actor: actor.name,
      kind: logKind(change),
      fieldId: scope.field.id,
      contextId: scope.context.id,
      target:
        change.action === 'option.sorted'
          ? { type: 'optionList', parentId: scope.parentId }
          : optionTarget(optionIdOf(change.after) ?? optionIdOf(change.before), scope.parentId),
      before: change.before,
      after: change.after,
    };
  }

  /** Options exist only on select-type fields; child options only on cascading ones. */
  private checkFieldType(scope: OptionScope): void {
    const refusal = fieldTypeRefusal(scope);
    if (refusal) throw refusal;
  }

  /** The parent of a child list: an option of this context (404 otherwise); plain cascading selects have two levels. */
  private async loadParent(q: Knex, scope: OptionScope, lock: boolean): Promise<OptionRow> {
    const id = scope.parentId ?? 0;
    const parent = await repo.findOption(q, scope.context.id, id, lock);
    if (!parent) throw optionNotFound(id);
    if (parent.parent_id !== null && !isMultiLevel(scope.field)) {
      throw unsupportedFieldType('optionId', `A cascading select has two levels; the option ${id} is a child option and cannot have children.`);
    }
    return parent;
  }

  /** An option of the addressed list: 404 when it is not in the context, 400 when it is in another list. */
  private async loadInList(q: Knex, scope: OptionScope, id: number): Promise<OptionRow> {
    return this.inList(scope, id, await repo.findOption(q, scope.context.id, id));
  }

  private inList(scope: OptionScope, id: number, option: OptionRow | undefined): OptionRow {
    if (!option) throw optionNotFound(id);
    if (option.parent_id !== scope.parentId) throw notInList(idName(scope), id, scope.parentId);
    return option;
  }
}
