import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
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
import { afterNotSibling, notInList, optionNotFound } from './options.errors.ts';
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
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
    private readonly cache = new OptionListCache(changes),
  ) {
    this.writer = new OptionWriter(knex, access, changes, eventLog);
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

  /**
   * U5/U10/C2: appends a new option; a sent `id` or `sequence` is ignored. The body is checked first, but a bad
   * one is answered only once the caller's right and the field type are (403001 whatever it sent, as the contract
   * orders the answers); a good one goes to the database with the write, which decides the right inside it.
   */
  async create(user: AuthUser, at: ListPath, body: unknown): Promise<OptionJson> {
    const parsed = createOptionBody.safeParse(body);
    if (!parsed.success) checkFieldType({ ...(await this.access.decideOnly(user, at.ids)), parentId: at.parentId });
    const input = parsed.success ? parsed.data : parseWith(createOptionBody, body, 'body');
    return this.writer.create(user, at, input.optionvalue, input.disabled ?? false);
  }

  /** U6/U11/C3: renames and/or (dis)enables; absent members stay as they are. */
  async update(user: AuthUser, at: ListPath, id: number, body: unknown): Promise<OptionJson> {
    return this.writer.write(user, at, (scope) => {
      const input = parseWith(updateOptionBody, body, 'body');
      const patch = { value: input.optionvalue ?? undefined, disabled: input.disabled ?? undefined };
      return {
        value: patch.value,
        exceptId: id,
        run: async (trx, list, log) => {
          // One statement when it changes something; otherwise (or for an option not in the list: the error) a look.
          const changed = await repo.updateInList(trx, list, id, patch);
          const before = changed?.before ?? (await this.loadInList(trx, scope, id));
          const row = changed?.row ?? (await repo.updateOption(trx, id, patch));
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

  /** U8/U13/C5: `position: First`, or directly after a sibling (after itself: nothing changes). One row is written. */
  async move(user: AuthUser, at: ListPath, id: number, body: unknown): Promise<OptionJson> {
    return this.writer.write(user, at, (scope) => {
      const move = parseWith(moveBody, body, 'body');
      return {
        run: async (trx, list, log) => {
          const afterId = 'afterId' in move ? move.afterId : null;
          // Most moves take one statement here; one that is not placed is an error to answer, a move after
          // itself (nothing changes), or a gap used up (renumbered, then placed).
          let placed = afterId === id ? undefined : await repo.placeAfter(trx, list, id, afterId);
          let option = placed ? { ...placed.row, position: placed.oldPosition } : undefined;
          if (!placed) {
            const found = await repo.findOptions(trx, scope.context.id, afterId === null ? [id] : [id, afterId]);
            option = this.inList(scope, id, found.find((o) => o.id === id));
            const target = afterId === null ? undefined : found.find((o) => o.id === afterId);
            if (afterId !== null && (!target || target.parent_id !== scope.parentId)) throw afterNotSibling(afterId, id);
            if (target?.id !== option.id) {
              await repo.renumber(trx, list);
              placed = await repo.placeAfter(trx, list, id, afterId);
              if (placed === undefined) throw new Error('no position after renumbering');
              // Its rank before the move is counted among the renumbered positions: from its own renumbered one.
              option = { ...option, position: placed.oldPosition };
            }
          }
          if (!option) throw new Error('moved option not found');
          const row = placed?.row ?? option;
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
