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
