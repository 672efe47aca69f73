import type { Knex } from 'knex';
import { appendEvents, selectAppendingQuery, type EntryFill, type EventEntry } from './event-log.repository.ts';

/** Called in the transaction that deleted the entries older than `before` (every entry: undefined). */
export type EventLogDeletionHook = (trx: Knex, before: Date | undefined) => Promise<void>;

/**
 * The writer every field-editor service uses to record its changes: `record(trx, …)` inside the change's
 * own transaction, so no change commits without its entry and no entry survives a rolled-back change.
 * `enabled: false` exists for the benchmark only (ADDON_PAIR_BENCH_NO_EVENT_LOG=1, platform/test-knobs.ts), to measure what the log costs.
 */
export class EventLog {
  private readonly deletionHooks: EventLogDeletionHook[] = [];

  constructor(readonly enabled = true) {}

  /**
   * Work other features do when old entries are deleted (truncation, the deletion actions), in the deletion's
   * transaction: webhooks delete the delivery history of the same age. Registered by the composition root.
   */
  onDeleted(hook: EventLogDeletionHook): void {
    this.deletionHooks.push(hook);
  }

  /** Runs the deletion hooks; called by whoever deleted entries older than `before` (all: undefined). */
  async deleted(trx: Knex, before: Date | undefined): Promise<void> {
    for (const hook of this.deletionHooks) await hook(trx, before);
  }

  async record(trx: Knex, ...entries: EventEntry[]): Promise<void> {
    if (this.enabled) await appendEvents(trx, entries);
  }

  /**
   * `query` (one row) with `entry` appended in the same statement (see `selectAppendingQuery`): for the hot
   * writes, whose last statement is a read the entry can ride on, so the log adds no round trip.
   */
  async recordAlong<T>(trx: Knex, query: Knex.QueryBuilder | Knex.Raw, entry: EventEntry, fill: EntryFill = {}): Promise<T[]> {
    if (!this.enabled) return rowsOf<T>(query);
    return rowsOf<T>(selectAppendingQuery(trx, query, entry, fill));
  }
}

/** A statement's rows: a raw statement answers a result (`rows`), a query builder the rows themselves. */
async function rowsOf<T>(statement: Knex.QueryBuilder | Knex.Raw): Promise<T[]> {
  const result = (await statement) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
