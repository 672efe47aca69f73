import type { Knex } from 'knex';
import { appendEvents, selectAppending, type EntryFill, type EventEntry } from './event-log.repository.ts';

/**
 * The writer every field-editor service uses to record its changes: `record(trx, …)` inside the change's
 * own transaction, so no change commits without its entry and no entry survives a rolled-back change.
 * `enabled: false` exists for the benchmark only (EVENT_LOG_WRITES=0), to measure what the log costs.
 */
export class EventLog {
  constructor(readonly enabled = true) {}

  async record(trx: Knex, ...entries: EventEntry[]): Promise<void> {
    if (this.enabled) await appendEvents(trx, entries);
  }

  /**
   * `query` (one row) with `entry` appended in the same statement (see `selectAppending`): for the hot
   * writes, whose last statement is a read the entry can ride on, so the log adds no round trip.
   */
  async recordAlong<T>(trx: Knex, query: Knex.QueryBuilder, entry: EventEntry, fill: EntryFill = {}): Promise<T[]> {
    return this.enabled ? selectAppending<T>(trx, query, entry, fill) : ((await query) as T[]);
  }
}
