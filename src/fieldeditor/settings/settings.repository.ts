import type { Knex } from 'knex';

/** Host-wide field-editor settings, stored as key/value rows; an absent row means the default. */
export interface FieldeditorSettings {
  /** When true, only administrators may delete options and child options. */
  onlyAdminsMayDeleteOptions: boolean;
}

export const DEFAULT_SETTINGS: FieldeditorSettings = { onlyAdminsMayDeleteOptions: false };

type SettingKey = keyof FieldeditorSettings;
const KEYS = Object.keys(DEFAULT_SETTINGS) as SettingKey[];

export async function readSettings(q: Knex): Promise<FieldeditorSettings> {
  const rows = await q('fieldeditor_settings').whereIn('key', KEYS).select<{ key: string; value: unknown }[]>('key', 'value');
  const settings = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    if (row.key === 'onlyAdminsMayDeleteOptions' && typeof row.value === 'boolean') settings.onlyAdminsMayDeleteOptions = row.value;
  }
  return settings;
}

/** Writes the given settings (others unchanged), in the caller's transaction. */
export async function writeSettings(q: Knex, patch: Partial<FieldeditorSettings>, by: string): Promise<void> {
  for (const key of KEYS) {
    const value = patch[key];
    if (value === undefined) continue;
    await q('fieldeditor_settings')
      .insert({ key, value: JSON.stringify(value), updated_at: q.fn.now(), updated_by: by })
      .onConflict('key')
      .merge(['value', 'updated_at', 'updated_by']);
  }
}

/**
 * Key of the transaction-scoped advisory lock that orders settings changes against deletes ("fesg").
 * Deletes take it shared (they never wait for each other); a settings change takes it exclusively, so it
 * waits for every delete in flight to commit, and deletes that start after it wait for it to commit and
 * then read the new value. So no delete by a non-administrator commits after a change that forbids it
 * has answered.
 */
const SETTINGS_LOCK = 0x66657367;

/** A settings change: waits for every delete in flight, and makes later deletes wait, until the transaction ends. */
export async function lockSettingsForChange(trx: Knex.Transaction): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(?)', [SETTINGS_LOCK]);
}

/** A delete: waits for a settings change in flight; never for another delete. Held until the transaction ends. */
export async function lockSettingsForDelete(trx: Knex.Transaction): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock_shared(?)', [SETTINGS_LOCK]);
}
