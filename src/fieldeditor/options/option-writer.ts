import type { Knex } from 'knex';
import type { Announcement, ChangeFeed } from '../../platform/events/change-feed.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { FIELD_OPTIONS_TOPIC } from '../shared/fieldeditor.topics.ts';
import { actorOf } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { decisionRefusal, lockArgs } from '../access/write-decision.repository.ts';
import type { EventLog } from '../maintenance/event-log.ts';
import type { EntryFill } from '../maintenance/event-log.repository.ts';
import { checkFieldType, childCannotHaveChildren, listOf, loadParent, type ListPath, type OptionScope } from './option-scope.ts';
import { entryOf, listTypes, MULTI_LEVEL_TYPE, typeRefusal } from './option-entry.ts';
import { toOptionJson, valueKey, type OptionChange, type OptionJson } from './options.model.ts';
import * as repo from './options.repository.ts';
import { afterNotSibling, duplicateValue, notInList, optionNotFound } from './options.errors.ts';
import { POSITION_GAP } from '../shared/fieldeditor.model.ts';

/**
 * A write once its right is decided: the value it stores (for the duplicate answer), a rule decided inside it,
 * and the operation. `write` asks for it with the decided scope, so a bad body is a 400 only for a caller
 * that may edit the list (a caller without a grant gets 403001 whatever it sent, as the contract orders them).
 */
export interface WritePlan<T> {
  /** The option value written, when the write sets one: a unique-index refusal is then answered as a duplicate. */
  value?: string;
  /** The option being renamed (a sibling with the same value other than itself is the duplicate). */
  exceptId?: number;
  /** A rule decided inside the write's transaction, after the list lock (the delete rule). */
  guard?: (trx: Knex.Transaction) => Promise<void>;
  /** The operation itself; an error it throws (a 404 for an option not in the list, say) rolls it back. */
  run: (trx: Knex.Transaction, list: repo.ListKey, log: Logged) => Promise<Done<T>>;
}
/** What an operation answers: its result and change, and `recorded` when it wrote the change's entry itself (`Logged.along`). */
export type Done<T> = { result: T; change: OptionChange | OptionChange[]; recorded?: boolean; operationId?: string };
/** Lets an operation write its entry in the same statement as its last read (one round trip less per write). */
export interface Logged {
  along<R>(query: Knex.QueryBuilder | Knex.Raw, change: OptionChange, fill: EntryFill): Promise<R[]>;
}

/** The sibling-value unique index refused a row (the constraint name is checked when the driver reports it). */
const isDuplicateValue = (err: unknown) => {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === 'field_options_sibling_value');
};

/**
 * Every option, child-option and list write of the option service. A create is ONE call of the database
 * (`ap_option_create`: the list lock, the caller's right, the row, its event-log entry and the change's
 * announcement, all in the call's own transaction). The other writes run in one knex transaction that starts
 * with `ap_lock_and_decide` (the lock, then the right decided under it), then the operation and its entry.
 * Every write answers after every node dropped its cached lists and defaults (FIELD_OPTIONS_TOPIC, announced
 * inside the write when the change feed can: one round trip less).
 *
 * Faults: a write is never sent twice once it may have committed. The one retry (`attempts`) follows a
 * unique-index refusal, which the database answered from inside the transaction, so nothing was committed;
 * any other failure (a lost connection, a COMMIT without an answer) is thrown as it is: a 500 with the request
 * id in the log, never a 4xx about the caller's own write.
 */
export class OptionWriter {
  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
  ) {}

  /** Creates an option at the end of the list the path names; `value` and `disabled` are the validated body. */
  create(user: AuthUser, at: ListPath, value: string, disabled: boolean): Promise<OptionJson> {
    return this.call(user, at, 'create', [value, valueKey(value), disabled, POSITION_GAP], { value });
  }

  /** Renames and/or (dis)enables option `id` (an absent member stays as it is). */
  update(user: AuthUser, at: ListPath, id: number, patch: { value?: string | undefined; disabled?: boolean | undefined }): Promise<OptionJson> {
    const value = patch.value ?? null;
    return this.call(user, at, 'update', [id, value, value === null ? null : valueKey(value), patch.disabled ?? null], {
      id,
      ...(patch.value === undefined ? {} : { value: patch.value }),
      exceptId: id,
    });
  }

  /** Moves option `id` first (`afterId` null) or right after its sibling `afterId`. */
  move(user: AuthUser, at: ListPath, id: number, afterId: number | null): Promise<OptionJson> {
    return this.call(user, at, 'move', [id, afterId, POSITION_GAP], { id, afterId });
  }

  /** A write that is one call of the database (a function of `repo.writeOption`): decided, written, logged and announced there. */
  private call(user: AuthUser, at: ListPath, kind: 'create' | 'update' | 'move', args: unknown[], about: About): Promise<OptionJson> {
    return this.attempts(about, at, async (announcement) => {
      const common = { scope: lockArgs(user, at.ids, at.parentId), actor: actorOf(user).name, types: listTypes(at.parentId), multiLevel: MULTI_LEVEL_TYPE };
      const row = await repo.writeOption(this.knex, kind, { ...common, log: this.eventLog.enabled, announcement }, args);
      return { result: toOptionJson(row, Number(row.n)), listeners: Number(row.listeners) };
    });
  }

  /** Runs one write in its own transaction (see the class comment). */
  write<T>(user: AuthUser, at: ListPath, plan: (scope: OptionScope) => WritePlan<T>): Promise<T> {
    const actor = actorOf(user).name;
    const tried: About & { how?: WritePlan<T> } = {};
    return this.attempts(tried, at, (announcement) =>
      this.knex.transaction(async (trx) => {
        const decision = await this.access.lockAndDecide(trx, user, at.ids, at.parentId);
        const scope: OptionScope = { ...decision, parentId: at.parentId };
        tried.scope = scope;
        // The contract's order of answers: the right (403001), the body (400), the field type (400), the delete
        // rule (403003, after the list lock so every writer locks in the same order), the parent (404).
        const how = (tried.how = plan(scope));
        checkFieldType(scope);
        if (how.guard) await how.guard(trx);
        if (scope.parentId !== null) await loadParent(trx, scope, true);
        const log: Logged = { along: (query, change, fill) => this.eventLog.recordAlong(trx, query, entryOf(actor, scope, change), fill) };
        const done = await how.run(trx, listOf(scope), log);
        if (!done.recorded) {
          const changes = Array.isArray(done.change) ? done.change : [done.change];
          const operation = done.operationId ? { operationId: done.operationId } : {};
          await this.eventLog.record(trx, ...changes.map((c) => ({ ...entryOf(actor, scope, c), ...operation })));
        }
        return { result: done.result, listeners: announcement ? await repo.announce(trx, announcement) : 0 };
      }),
    );
  }

  /**
   * Runs `once` (one write, announcing its change with `announcement` when there is one) and answers its result
   * once the change is published. A unique-index refusal is answered as the documented 400 naming the existing
   * option; when that sibling is gone (a concurrent delete committed in between), the write is tried once more.
   */
  private async attempts<T>(
    tried: About & { how?: { value?: string; exceptId?: number } },
    at: ListPath,
    once: (announcement: Announcement | undefined) => Promise<{ result: T; listeners: number }>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const announcement = this.changes.announceWithin?.(FIELD_OPTIONS_TOPIC);
      let done: { result: T; listeners: number };
      try {
        done = await once(announcement);
      } catch (err) {
        const value = tried.how ? tried.how.value : tried.value;
        if (value !== undefined && isDuplicateValue(err)) {
          const existing = await this.sameValue(tried.scope, at, value, tried.how ? tried.how.exceptId : tried.exceptId);
          if (existing !== undefined) throw duplicateValue(value, existing);
          if (attempt < 2) continue;
        }
        throw refusalOf(err, at, tried) ?? err;
      }
      await (announcement ? announcement.delivered(done.listeners) : this.changes.publish(FIELD_OPTIONS_TOPIC));
      return done.result;
    }
  }

  /** The sibling that holds `value` (a create, which has no scope in TypeScript, finds its list by the path). */
  private async sameValue(scope: OptionScope | undefined, at: ListPath, value: string, exceptId: number | undefined): Promise<number | undefined> {
    const list = scope ? listOf(scope) : await repo.listOfPath(this.knex, at.ids, at.parentId);
    return list ? repo.findSameValue(this.knex, list, value, exceptId) : undefined;
  }
}

/** What a write is about, for its refusals: the value it stores, the option it changes, its scope once decided. */
interface About {
  scope?: OptionScope;
  value?: string;
  id?: number;
  exceptId?: number;
  afterId?: number | null;
}

/** The documented answer of a refusal raised inside a write function (the right, the field type, the options named). */
function refusalOf(err: unknown, at: ListPath, about: About): Error | undefined {
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
      return afterNotSibling(named, about.id ?? 0);
    default:
      return decisionRefusal(err, at.ids);
  }
}
