import type { Knex } from 'knex';
import { countEvents, pageOfEvents, type EventFilter, type EventKey, type EventJsonRow } from './event-log.repository.ts';

/** How long a counted total is reused while the log's mark is unchanged (bounds what the mark cannot see). */
export const TOTAL_TTL_MS = 5_000;
/** How long a page's end is remembered for a keyset continuation (same bound, for cursors). */
export const CURSOR_TTL_MS = 60_000;
const MAX_FILTERS = 64;
const MAX_CURSORS = 256;

interface Remembered {
  mark: string;
  total?: number;
  countedAt: number;
  /** startAt of the next page → the key of the entry just before it, and when it was learnt. */
  cursors: Map<number, { key: EventKey; at: number }>;
}

const filterKey = (f: EventFilter) =>
  JSON.stringify([f.from?.toISOString() ?? null, f.to?.toISOString() ?? null, f.kinds ?? null, f.actor?.toLowerCase() ?? null, f.fieldId ?? null]);

/**
 * Paging of the event log that stays fast on deep pages (issue 11: every page of 100,000 entries under 50 ms).
 * The API keeps offset paging (`startAt`); this node remembers, per filter (a small LRU), where each page it
 * served ended and the filter's total. A request whose `startAt` is the end of such a page continues after
 * that entry's key (no offset walked) and reuses the total, provided the log's mark (id sequence and oldest
 * entry, read by the same statement as the page) is the one the previous page was read under: then nothing was added or deleted in between
 * and the answer is exactly what the offset query would answer. Otherwise (a change, another node served the
 * previous page, an unknown startAt) it is the plain offset query with a fresh count.
 */
export class EventPages {
  private readonly byFilter = new Map<string, Remembered>();

  constructor(
    private readonly knex: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  async page(f: EventFilter, startAt: number, maxResults: number): Promise<{ total: number; rows: EventJsonRow[]; continued: boolean }> {
    const key = filterKey(f);
    const now = this.now();
    const known = this.byFilter.get(key);
    this.byFilter.delete(key);
    const cursor = known && startAt > 0 ? known.cursors.get(startAt) : undefined;
    const after = cursor && now - cursor.at < CURSOR_TTL_MS ? cursor.key : undefined;
    const total = known?.total !== undefined && now - known.countedAt < TOTAL_TTL_MS ? known.total : undefined;
    // Optimistic: asked with the remembered continuation and total; the mark, read by the same statement,
    // says whether they held (nothing added or deleted since they were learnt).
    let got = await pageOfEvents(this.knex, f, startAt, maxResults, { total, after });
    const held = known !== undefined && got.mark === known.mark;
    if (after !== undefined && !held) got = await pageOfEvents(this.knex, f, startAt, maxResults);
    else if (total !== undefined && !held) got = { ...got, total: await countEvents(this.knex, f) };
    const r: Remembered = held ? known : { mark: got.mark, countedAt: 0, cursors: new Map() };
    if (!(held && total !== undefined)) {
      r.total = got.total;
      r.countedAt = now;
    }
    if (got.last) {
      r.cursors.delete(startAt + got.rows.length);
      r.cursors.set(startAt + got.rows.length, { key: got.last, at: now });
      if (r.cursors.size > MAX_CURSORS) r.cursors.delete(r.cursors.keys().next().value!);
    }
    this.byFilter.set(key, r);
    if (this.byFilter.size > MAX_FILTERS) this.byFilter.delete(this.byFilter.keys().next().value!);
    return { total: got.total, rows: got.rows, continued: after !== undefined && held };
  }

  /** Forgets everything (tests). */
  clear(): void {
    this.byFilter.clear();
  }
}
