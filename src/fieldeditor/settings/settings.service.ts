import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { BoundedCache } from '../../platform/cache/bounded-cache.ts';
import { FIELDEDITOR_SETTINGS_TOPIC } from '../shared/fieldeditor.topics.ts';
import type { Actor } from '../access/actor.ts';
import { deleteAdminsOnly } from '../shared/fieldeditor.errors.ts';
import { lockSettingsForChange, lockSettingsForDelete, readSettings, writeSettings, type FieldeditorSettings } from './settings.repository.ts';
import type { EventLog } from '../maintenance/event-log.ts';

/** Host-wide field-editor settings (`/admin/settings`) and the delete rule they hold. */
export class SettingsService {
  /** The settings as last read, until a settings change anywhere in the cluster (one entry). */
  private readonly cache: BoundedCache<'settings', FieldeditorSettings>;

  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    private readonly eventLog: EventLog,
  ) {
    this.cache = new BoundedCache({ name: 'fieldeditor_settings', ttlMs: 5 * 60_000, maxEntries: 1, feed: { changes, topics: [FIELDEDITOR_SETTINGS_TOPIC] } });
  }

  read(): Promise<FieldeditorSettings> {
    return this.cache.getOrLoad('settings', () => readSettings(this.knex));
  }

  /** Writes the given settings (others unchanged) and answers all of them once every node has dropped its copy. */
  async update(actor: Actor, patch: Partial<FieldeditorSettings>): Promise<FieldeditorSettings> {
    const settings = await this.knex.transaction(async (trx) => {
      await lockSettingsForChange(trx);
      const before = await readSettings(trx);
      await writeSettings(trx, patch, actor.name);
      const after = await readSettings(trx);
      await this.eventLog.record(trx, { actor: actor.name, kind: 'settings.changed', target: { type: 'setting', key: 'settings' }, before, after });
      return after;
    });
    await this.changes.publish(FIELDEDITOR_SETTINGS_TOPIC);
    return settings;
  }

  /** U3's `userAllowedToDeleteOptions`: a hint for clients; every delete decides again in its transaction. */
  async mayDelete(actor: Actor): Promise<boolean> {
    return actor.isAdmin || !(await this.read()).onlyAdminsMayDeleteOptions;
  }

  /**
   * THE delete rule, decided inside the delete's transaction (after its list lock, so every writer takes the
   * two locks in the same order): 403003 when only administrators may delete and the actor is not one.
   */
  async checkMayDelete(trx: Knex.Transaction, actor: Actor): Promise<void> {
    await lockSettingsForDelete(trx);
    if (!actor.isAdmin && (await readSettings(trx)).onlyAdminsMayDeleteOptions) throw deleteAdminsOnly();
  }
}

export type { FieldeditorSettings };
