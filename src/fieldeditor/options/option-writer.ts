import type { Knex } from 'knex';
import type { Announcement, ChangeFeed } from '../../platform/events/change-feed.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { FIELD_OPTIONS_TOPIC } from '../shared/fieldeditor.topics.ts';
import { actorOf } from '../access/actor.ts';
import { decisionRefusal, lockAndDecide, lockArgs } from '../access/write-decision.repository.ts';
import type { EventLog } from '../maintenance/event-log.ts';
import { checkFieldType, childCannotHaveChildren, listOf, loadParent, type ListPath, type OptionScope } from './option-scope.ts';
import { entryOf, typeArgs, typeRefusal } from './option-entry.ts';
import { toOptionJson, valueKey, type OptionChange, type OptionJson } from './options.model.ts';
import * as repo from './options.repository.ts';
import { afterNotSibling, duplicateValue, notInList, optionNotFound } from './options.errors.ts';
import { POSITION_GAP } from '../shared/fieldeditor.model.ts';

/**
 * A write of `write` once its right is decided: a rule decided inside it, and the operation. `write` asks for it
 * with the decided scope, so a bad body is a 400 only for a caller that may edit the list (a caller without a
 * grant gets 403001 whatever it sent, as the contract orders them).
 */
export interface WritePlan<T> {
  /** A rule decided inside the write's transaction, after the list lock (the delete rule). */
  guard?: (trx: Knex.Transaction) => Promise<void>;
  /** The operation itself; an error it throws (a 404 for an option not in the list, say) rolls it back. */
  run: (trx: Knex.Transaction, list: repo.ListKey) => Promise<Done<T>>;
}
/** What an operation answers: its result, its change(s) for the event log, and the operation id they share (a batch). */
export type Done<T> = { result: T; change: OptionChange | OptionChange[]; operationId?: string };

/** The sibling-value unique index refused a row (the constraint name is checked when the driver reports it). */
const isDuplicateValue = (err: unknown) => {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === 'field_options_sibling_value');
};

/**
 * Every option, child-option and list write of the option service. A create, rename, (dis)enabling or move is
 * ONE call of the database (`call`: `ap_option_create`, `_update`, `_move` take the list lock, decide the
 * caller's right under it, write the row, its event-log entry and the change's announcement, all in the call's
 * own transaction). The other writes (`write`) run in one knex transaction that starts with `ap_lock_and_decide`
 * (the lock, then the right decided under it), then the operation and its entries. Every write answers after
 * every node dropped its cached lists and defaults (FIELD_OPTIONS_TOPIC, announced inside the write when the
 * change feed can: one round trip less).
 *
 * Faults: a write is never sent twice once it may have committed. The one retry follows a unique-index refusal
 * of a call, which the database answered from inside the transaction, so nothing was committed; any other
 * failure (a lost connection, a COMMIT without an answer) is thrown as it is: a 500 with the request id in the
 * log, never a 4xx about the caller's own write.
 */
export class OptionWriter {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
  ) {}

  /** Creates an option at the end of the list the path names; `value` and `disabled` are the validated body. */
  create(user: AuthUser, at: ListPath, value: string, disabled: boolean): Promise<OptionJson> {
    return this.call(user, at, 'create', [value, valueKey(value), disabled, POSITION_GAP], value);
  }

  /** Renames and/or (dis)enables option `id` (an absent member stays as it is). */
  update(user: AuthUser, at: ListPath, id: number, patch: { value?: string | undefined; disabled?: boolean | undefined }): Promise<OptionJson> {
    const value = patch.value ?? null;
    const args = [id, value, value === null ? null : valueKey(value), patch.disabled ?? null];
    return this.call(user, at, 'update', args, patch.value, id);
  }

  /** Moves option `id` first (`afterId` null) or right after its sibling `afterId`. */
  move(user: AuthUser, at: ListPath, id: number, afterId: number | null): Promise<OptionJson> {
    return this.call(user, at, 'move', [id, afterId, POSITION_GAP], undefined, id);
  }

  /**
   * A write that is one call of the database (`repo.writeOption`) that stores `value` (a create, a rename) or
   * changes option `id`. A unique-index refusal is answered as the documented 400 naming the
   * sibling that holds the value; when that sibling is gone (a concurrent delete committed in between), the call
   * is made once more.
   */
  private async call(user: AuthUser, at: ListPath, kind: repo.WriteKind, args: unknown[], value?: string, id?: number): Promise<OptionJson> {
    const common = { scope: lockArgs(user, at.ids, at.parentId), actor: actorOf(user).name, ...typeArgs(at.parentId) };
    for (let attempt = 1; ; attempt++) {
      const announcement = this.changes.announceWithin?.(FIELD_OPTIONS_TOPIC);
      let row: repo.WrittenRow;
      try {
        row = await repo.writeOption(this.knex, kind, { ...common, log: this.eventLog.enabled, announcement }, args);
      } catch (err) {
        if (value !== undefined && isDuplicateValue(err)) {
          const list = await repo.listOfPath(this.knex, at.ids, at.parentId);
          const existing = list && (await repo.findSameValue(this.knex, list, value, id));
          if (existing !== undefined) throw duplicateValue(value, existing);
          if (attempt < 2) continue;
        }
        throw refusalOf(err, at, id) ?? err;
      }
      await this.published(announcement, Number(row.listeners));
      return toOptionJson(row, Number(row.n));
    }
  }

  /** Runs one write in its own transaction (see the class comment). */
  async write<T>(user: AuthUser, at: ListPath, plan: (scope: OptionScope) => WritePlan<T>): Promise<T> {
    const actor = actorOf(user).name;
    const announcement = this.changes.announceWithin?.(FIELD_OPTIONS_TOPIC);
    const { result, listeners } = await this.knex.transaction(async (trx) => {
      const scope: OptionScope = { ...(await lockAndDecide(trx, user, at.ids, at.parentId)), parentId: at.parentId };
      // The contract's order of answers: the right (403001), the body (400), the field type (400), the delete
      // rule (403003, after the list lock so every writer locks in the same order), the parent (404).
      const how = plan(scope);
      checkFieldType(scope);
      if (how.guard) await how.guard(trx);
      if (scope.parentId !== null) await loadParent(trx, scope, true);
      const done = await how.run(trx, listOf(scope));
      const operation = done.operationId ? { operationId: done.operationId } : {};
      const changes = Array.isArray(done.change) ? done.change : [done.change];
      await this.eventLog.record(trx, ...changes.map((c) => ({ ...entryOf(actor, scope, c), ...operation })));
      return { result: done.result, listeners: announcement ? await repo.announce(trx, announcement) : 0 };
    });
    await this.published(announcement, listeners);
    return result;
  }

  /** Once a write committed: every node has dropped its caches of the option lists (announced inside the write, or now). */
  private published(announcement: Announcement | undefined, listeners: number): Promise<void> {
    return announcement ? announcement.delivered(listeners) : this.changes.publish(FIELD_OPTIONS_TOPIC);
  }
}

/** The documented answer of a refusal raised inside a write function of option `id` (the right, the field type, the options named). */
function refusalOf(err: unknown, at: ListPath, id: number | undefined): Error | undefined {
  const e = err as { code?: unknown; detail?: unknown } | null;
  const named = Number(e?.detail);
  switch (e?.code) {
    case 'AP400':
      return typeRefusal(String(e.detail), at.parentId);
    case 'AP405':
    case 'AP410':
      return optionNotFound(named);
    case 'AP406':
      return childCannotHaveChildren(named);
    case 'AP411':
      return notInList(at.parentId === null ? 'optionId' : 'childOptionId', named, at.parentId);
    case 'AP412':
      return afterNotSibling(named, id ?? 0);
    default:
      return decisionRefusal(err, at.ids);
  }
}
