import type { Knex } from 'knex';
import { rowsOf } from '../../platform/db/send-now.ts';
import { appendEvents, selectAppendingQuery, type EntryFill, type EventEntry } from './event-log.repository.ts';

/** Called in the transaction that deleted the entries older than `before` (every entry: undefined). */
export type EventLogDeletionHook = (trx: Knex, before: Date | undefined) => Promise<void>;

/**
 * The writer every field-editor service uses to record its changes: `record(trx, …)` inside the change's
 * own transaction, so no change commits without its entry and no entry survives a rolled-back change.
 * `enabled: false` exists for the benchmark only (EVENT_LOG_WRITES=0), to measure what the log costs.
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
   * writes, whose last statement is a read the entry can ride on, so the log adds no round trip. `send` runs
   * the statement (the writer's last statement goes out with the commit behind it); by default it is awaited.
   */
  async recordAlong<T>(trx: Knex, query: Knex.QueryBuilder | Knex.Raw, entry: EventEntry, fill: EntryFill = {}, send: Send = rowsOf): Promise<T[]> {
    const statement = this.enabled ? selectAppendingQuery(trx, query, entry, fill) : query;
    return (await send(statement)) as T[];
  }
}

/** Runs a statement and answers its rows. */
export type Send = (statement: Knex.QueryBuilder | Knex.Raw) => Promise<unknown[]>;
