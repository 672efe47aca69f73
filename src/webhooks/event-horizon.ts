import type { Knex } from 'knex';
import { idsAfter } from './event-feed.repository.ts';

/** A gap must also be this old before it is passed (a writer may take its id just before its transaction id). */
const GAP_MIN_AGE_MS = 1000;
const READ_LIMIT = 10_000;

/**
 * The event-log id up to which every entry that will ever exist is visible now: the producer hands out entries
 * up to it and never later finds one below it. Event-log ids come from a sequence in each change's own
 * transaction, so on PostgreSQL an entry may commit after a higher one (its transaction took its id first and
 * committed later); a cursor that simply moved past the higher id would lose it. So the horizon stops at the
 * first missing id (a gap) and passes it only when the gap cannot fill any more: every transaction that could
 * have been running when the gap was first seen has ended (it committed, and the entry is visible, or it rolled
 * back), and at least a second has passed. One per node, in memory; each node finds the same horizon.
 */
export class EventHorizon {
  private safe: number | undefined;
  /** Where the horizon began: below it, nothing was checked. */
  private base = 0;
  private gap: { at: number; snapshot: string; seenAt: number } | undefined;

  /** The horizon after reading the log once; `start`: the lowest cursor of the subscriptions. */
  async advance(q: Knex, start: number): Promise<number> {
    // No subscription's cursor is below `start`, so what lies below it concerns nobody (a subscription starts
    // at the newest entry when it is created). The horizon was only ever checked above where it began: a cursor
    // below that (a subscription enabled again) starts it anew from there.
    if (this.safe === undefined || start > this.safe || start < this.base) {
      this.safe = start;
      this.base = start;
    }
    const since = this.gap?.at === this.safe + 1 ? this.gap.snapshot : null;
    const read = await idsAfter(q, this.safe, READ_LIMIT, since);
    for (const id of read.ids) {
      if (id === this.safe + 1) {
        this.safe = id;
        continue;
      }
      const gap = this.gap;
      if (gap && gap.at === this.safe + 1 && read.settled && Date.now() - gap.seenAt >= GAP_MIN_AGE_MS) {
        this.safe = id; // the missing ids were rolled back (or truncated away): they will never appear
        this.gap = undefined;
        continue;
      }
      if (!gap || gap.at !== this.safe + 1) this.gap = { at: this.safe + 1, snapshot: read.snapshot, seenAt: Date.now() };
      break;
    }
    return this.safe;
  }
}
