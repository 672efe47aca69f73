import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import type { z } from 'zod';
import { CachedBody } from '../../platform/http/cached-body.ts';
import type { PeekedHit } from '../../platform/http/fast-path.ts';
import { isCascading } from '../access/field-kinds.ts';
import { actorOf } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { createOptionBody, moveBody, sortBody, updateOptionBody } from './options.schemas.ts';
import { toOptionJson, type OptionJson, type OptionRow } from './options.model.ts';
import { applyBatch } from './options-batch.ts';
import { parseBatch } from './options-batch.schemas.ts';
import { randomUUID } from 'node:crypto';
import * as repo from './options.repository.ts';
import { OptionListCache } from './options.cache.ts';
import { readDefaultOptions } from './defaults.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { EventLog } from '../maintenance/event-log.ts';
import { sortByValue } from './sort.ts';
import { notInList, optionNotFound } from './options.errors.ts';
import { checkFieldType, fieldTypeRefusal, listOf, loadParent, type ListPath, type OptionScope } from './option-scope.ts';
import { OptionWriter } from './option-writer.ts';


const idName = (s: OptionScope) => (s.parentId === null ? 'optionId' : 'childOptionId');
const withParent = (o: OptionRow, sequence: number) => ({ ...toOptionJson(o, sequence), parentId: o.parent_id });

/**
 * Rules of option lists (U4–U14, C1–C6). Reads get the scope the caller may read (FieldAccess.readable);
 * every write takes the caller and the path's ids and goes through the OptionWriter
 * (option-writer.ts: the list lock, the caller's right decided under it, the operation, its event-log entry,
 * and the change's announcement before the answer). Each operation writes as few rows as it needs: order lives
 * in a sparse `position`, and the dense `sequence` of every answer is the rank.
 */
export class OptionsService {
  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
    private readonly settings: SettingsService,
    changes: ChangeFeed,
    eventLog: EventLog,
    private readonly cache = new OptionListCache(changes),
  ) {
    this.writer = new OptionWriter(knex, changes, eventLog);
  }

  /** Every write below goes through it: a create is one call of the database, the others one transaction each. */
  private readonly writer: OptionWriter;

  /**
   * U4/U9/C1: the list as JSON, from this node's list cache (see options.cache.ts). A child list is
   * remembered only once its parent was found, so an unknown parent is asked of the database each time.
   */
  async listJson(scope: OptionScope): Promise<CachedBody> {
    checkFieldType(scope);
    const list = listOf(scope);
    return this.cache.list(list.contextId, list.parentId, async () => {
      if (scope.parentId !== null) await loadParent(this.knex, scope, false);
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

  /** U5/U10/C2: appends a new option; a sent `id` or `sequence` is ignored. One call of the database. */
  async create(user: AuthUser, at: ListPath, body: unknown): Promise<OptionJson> {
    const input = await this.validBody(user, at, createOptionBody, body);
    return this.writer.create(user, at, input.optionvalue, input.disabled ?? false);
  }

  /**
   * The body of a write that decides inside the database. A bad one is answered only once the caller's right
   * and the field type are (403001 whatever it sent, as the contract orders the answers: decided here without a
   * lock, since nothing is written); a good one goes with the write, which decides the right again inside it.
   */
  private async validBody<S extends z.ZodType>(user: AuthUser, at: ListPath, schema: S, body: unknown): Promise<z.infer<S>> {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    checkFieldType({ ...(await this.access.decideOnly(user, at.ids)), parentId: at.parentId });
    return parseWith(schema, body, 'body');
  }

  /** U6/U11/C3: renames and/or (dis)enables; absent members stay as they are. One call of the database, like a create. */
  async update(user: AuthUser, at: ListPath, id: number, body: unknown): Promise<OptionJson> {
    const input = await this.validBody(user, at, updateOptionBody, body);
    return this.writer.update(user, at, id, { value: input.optionvalue ?? undefined, disabled: input.disabled ?? undefined });
  }

  /** U7/U12/C4: deletes the option with its children; it leaves any default that held it. */
  async remove(user: AuthUser, at: ListPath, id: number): Promise<{ id: number }> {
    const actor = actorOf(user);
    return this.writer.write(user, at, (scope) => ({
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

  /** U8/U13/C5: `position: First`, or directly after a sibling (after itself: nothing changes). One row is written, in one call. */
  async move(user: AuthUser, at: ListPath, id: number, body: unknown): Promise<OptionJson> {
    const move = await this.validBody(user, at, moveBody, body);
    return this.writer.move(user, at, id, 'afterId' in move ? move.afterId : null);
  }

  /** U14/C6: locale-aware sort of one list; rewrites every `sequence` as 0..n-1 (which also repairs it). */
  async sort(user: AuthUser, at: ListPath, body: unknown): Promise<OptionJson | Record<string, never>> {
    return this.writer.write(user, at, (scope) => {
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
    return this.writer.write(user, at, (scope) => {
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
