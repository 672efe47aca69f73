import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { BoundedCache } from '../../platform/cache/bounded-cache.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { FIELD_OPTIONS_TOPIC } from '../shared/fieldeditor.topics.ts';
import type { ContextRef, FieldRef } from '../../tracker/refs.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';
import { defaultKindOf, type OptionRow } from './options.model.ts';
import { findOptions } from './options.repository.ts';
import { clearDefault, insertDefault, readDefaultOptions, readDefaultValue, toDefaultRead, type DefaultValueRead } from './defaults.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { unsupportedFieldType } from './options.errors.ts';
import { actorOf, type Actor } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import type { ScopeIds } from '../access/ids.ts';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { defaultWriteBody } from './defaults.schemas.ts';
import type { EventLog } from '../maintenance/event-log.ts';

export interface DefaultWrite {
  optionId?: number | null;
  childOptionId?: number | null;
  optionIds?: number[] | null;
}

/** One named option of the write model, checked against the context. */
interface Wanted {
  id: number;
  name: string;
  /** The parent it must have (null: a top-level option). */
  parentId: number | null;
}

/**
 * Default values per context (U15). The chosen options are rows of field_default_options with a foreign
 * key to the option, so deleting an option removes it from the default in the same transaction. A write takes
 * the caller and the path's ids: in its transaction it locks the context's top-level list (which serialises it
 * with option writes and other default writes of the context), then decides the caller's right under that
 * lock (ap_lock_and_decide, access/write-decision.repository.ts), then reads its body, so a caller without a grant gets 403001 whatever it sent.
 */
export class DefaultsService {
  /**
   * U15 read models by context, until an option or default write (FIELD_OPTIONS_TOPIC: a default shows
   * option values, `disabled` and `sequence`) or a context change or import (tracker) anywhere in the cluster.
   */
  private readonly cache: BoundedCache<number, DefaultValueRead>;

  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
    private readonly settings: SettingsService,
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
  ) {
    this.cache = new BoundedCache({ name: 'fieldeditor_defaults', ttlMs: 5 * 60_000, maxEntries: 20_000, feed: { changes, topics: [FIELD_OPTIONS_TOPIC, TRACKER_TOPIC] } });
  }

  async get(field: FieldRef, context: ContextRef): Promise<DefaultValueRead> {
    this.kindOf(field);
    return this.cache.getOrLoad(context.id, async () => toDefaultRead(field, await readDefaultOptions(this.knex, context.id)));
  }

  /**
   * U3's `defaultOption`: the read model as stored (`{}` when none is set, whatever the field type), read from
   * the database: U3 keeps its own answer per user (fields/user-reads.cache.ts).
   */
  storedValue(field: FieldRef, context: ContextRef): Promise<Record<string, unknown>> {
    return readDefaultValue(this.knex, field, context);
  }

  /** Replaces the default with the write model's members for this field type (other members are ignored). */
  async put(user: AuthUser, ids: ScopeIds, body: unknown): Promise<DefaultValueRead> {
    const actor = actorOf(user);
    const { field, after } = await this.knex.transaction(async (trx) => {
      const { field, context } = await this.access.lockAndDecide(trx, user, ids, null);
      const wanted = this.wantedOptions(field, parseWith(defaultWriteBody, body, 'body'));
      const found = new Map(
        (await findOptions(trx, context.id, wanted.map((w) => w.id), true)).map((o) => [o.id, o] as const),
      );
      const problems = wanted.flatMap((w) => problemOf(w, found.get(w.id)));
      if (problems.length > 0) throw validationError(problems);
      const previous = await readDefaultOptions(trx, context.id);
      await clearDefault(trx, context.id);
      await insertDefault(trx, context.id, wanted.map((w) => w.id));
      const current = await readDefaultOptions(trx, context.id);
      await this.record(trx, actor, field, context, 'default.set', previous, current);
      return { field, after: current };
    });
    await this.changes.publish(FIELD_OPTIONS_TOPIC);
    return toDefaultRead(field, after);
  }

  /** Clears the default (nothing set is fine too). Subject to the only-admins-delete setting like every delete. */
  async remove(user: AuthUser, ids: ScopeIds): Promise<void> {
    const actor = actorOf(user);
    await this.knex.transaction(async (trx) => {
      const { field, context } = await this.access.lockAndDecide(trx, user, ids, null);
      this.kindOf(field);
      await this.settings.checkMayDelete(trx, actor);
      const previous = await readDefaultOptions(trx, context.id);
      await clearDefault(trx, context.id);
      await this.record(trx, actor, field, context, 'default.deleted', previous, []);
    });
    await this.changes.publish(FIELD_OPTIONS_TOPIC);
  }

  private kindOf(field: FieldRef) {
    const kind = defaultKindOf(field);
    if (!kind) throw unsupportedFieldType('customFieldId', `The field type ${field.fieldType} has no option default that the field editor manages.`);
    return kind;
  }

  private wantedOptions(field: FieldRef, body: DefaultWrite): Wanted[] {
    const kind = this.kindOf(field);
    if (kind === 'multi') {
      if (!body.optionIds) throw validationError([{ name: 'optionIds', message: 'optionIds is required for this field type (send [] for no default).' }]);
      return [...new Set(body.optionIds)].map((id) => ({ id, name: 'optionIds', parentId: null }));
    }
    if (body.optionId === undefined || body.optionId === null) {
      throw validationError([{ name: 'optionId', message: 'optionId is required for this field type.' }]);
    }
    const wanted: Wanted[] = [{ id: body.optionId, name: 'optionId', parentId: null }];
    if (kind === 'cascading' && body.childOptionId !== undefined && body.childOptionId !== null) {
      wanted.push({ id: body.childOptionId, name: 'childOptionId', parentId: body.optionId });
    }
    return wanted;
  }

  /** The change's event-log entry, in its transaction. */
  private record(trx: Knex.Transaction, actor: Actor, field: FieldRef, context: ContextRef, kind: string, before: OptionRow[], after: OptionRow[]) {
    const options = (rows: OptionRow[]) => rows.map((o) => ({ id: o.id, optionvalue: o.value, parentId: o.parent_id }));
    return this.eventLog.record(trx, {
      actor: actor.name,
      kind,
      fieldId: field.id,
      contextId: context.id,
      target: { type: 'default', contextId: context.id },
      before: { options: options(before) },
      after: { options: options(after) },
    });
  }

}

function problemOf(w: Wanted, option: OptionRow | undefined): { name: string; message: string; value: unknown }[] {
  const value = { id: w.id };
  if (!option) return [{ name: w.name, message: `The option ${w.id} does not exist in this context.`, value }];
  if (option.parent_id !== w.parentId) {
    const message =
      w.parentId === null
        ? `The option ${w.id} is a child option; name its parent in optionId and it in childOptionId.`
        : `The option ${w.id} is not a child option of the option ${w.parentId}.`;
    return [{ name: w.name, message, value }];
  }
  if (option.disabled) return [{ name: w.name, message: `The option ${w.id} is disabled and cannot be a default.`, value }];
  return [];
}
