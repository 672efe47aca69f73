import type { Knex } from 'knex';

/** M3: the automatic truncation of the event log. Kept as one row of `fieldeditor_settings`. */
export interface TruncateSchedule {
  /** When true, every schedule tick deletes the entries older than `olderThanDays`. */
  enabled: boolean;
  olderThanDays: number;
}

export const DEFAULT_TRUNCATE_SCHEDULE: TruncateSchedule = { enabled: false, olderThanDays: 90 };
const KEY = 'eventLogTruncateSchedule';

export async function readTruncateSchedule(q: Knex): Promise<TruncateSchedule> {
  const row = (await q('fieldeditor_settings').where({ key: KEY }).first('value')) as { value: Partial<TruncateSchedule> } | undefined;
  const v = row?.value ?? {};
  return {
    enabled: typeof v.enabled === 'boolean' ? v.enabled : DEFAULT_TRUNCATE_SCHEDULE.enabled,
    olderThanDays: typeof v.olderThanDays === 'number' ? v.olderThanDays : DEFAULT_TRUNCATE_SCHEDULE.olderThanDays,
  };
}

export async function writeTruncateSchedule(q: Knex, schedule: TruncateSchedule, by: string): Promise<void> {
  await q('fieldeditor_settings')
    .insert({ key: KEY, value: JSON.stringify(schedule), updated_at: q.fn.now(), updated_by: by })
    .onConflict('key')
    .merge(['value', 'updated_at', 'updated_by']);
}
