import type { Knex } from 'knex';
import { appendEvents, type EventEntry } from './event-log.repository.ts';

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
}
