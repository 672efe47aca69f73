import type { ChangeFeed } from '../events/change-feed.ts';
import { cacheStats, type CacheStats } from './cache-stats.ts';

export interface BoundedCacheOptions<V> {
  /** Name of its hit and miss counters in the metrics (`addon_pair_cache_hits_total{cache="…"}`). */
  name: string;
  /** Entries older than this are read again. */
  ttlMs: number;
  maxEntries: number;
  /** Optional size budget (e.g. characters of text held); `weigh` tells an entry's size. */
  maxWeight?: number;
  weigh?: (value: V) => number;
  /** Forgets everything on a change of these change-feed topics, and answers only while the feed is live. */
  feed?: { changes: ChangeFeed; topics: readonly string[] };
}

/**
 * A small in-process cache for hot read paths: time-bounded, size-bounded (oldest entries leave first),
 * and, when tied to the change feed, emptied on every change of its topics anywhere in the cluster and
 * bypassed while the feed is down, so it never serves an answer that a committed change made wrong.
 *
 * Tied to the feed, the cache remembers the feed's counter of its topics as it was when its entries were
 * valid, and compares it on every use (get, peek, stamp, set): when it moved, the cache empties itself
 * first. So a change is seen by the very next lookup, whenever the thread that raised the counter did so,
 * and no callback on the main thread is needed.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number; weight: number }>();
  private weight = 0;
  private readonly stats: CacheStats;
  /** Raised by every clear: a value loaded before a clear must not be stored after it (it may be stale). */
  private generation = 0;
  /** The change counter of the feed's topics, and its value when the entries were last known valid. */
  private readonly changeCounter: (() => number) | undefined;
  private seen = 0;

  constructor(private readonly opts: BoundedCacheOptions<V>) {
    this.stats = cacheStats(opts.name);
    this.changeCounter = opts.feed?.changes.counter(opts.feed.topics);
    this.seen = this.changeCounter?.() ?? 0;
  }

  /** Empties the cache when one of its topics changed since it last looked. */
  private sync(): void {
    if (!this.changeCounter) return;
    const now = this.changeCounter();
    if (now === this.seen) return;
    this.seen = now;
    this.clear();
  }

  /** The cached value (counted as a hit), or undefined (a miss): absent, expired, or the feed is down. */
  get(key: K): V | undefined {
    const value = this.opts.feed && !this.opts.feed.changes.live ? undefined : this.peek(key);
    if (value === undefined) this.stats.misses++;
    else this.stats.hits++;
    return value;
  }

  /**
   * The entry's value whether or not the change feed is live, without counting a hit or a miss: for a caller
   * that already counted this lookup and only wants to reuse what a verified entry still proves.
   */
  peek(key: K): V | undefined {
    this.sync();
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires < Date.now()) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * What `get` would answer, but counted neither as a hit nor as a miss: for a caller that answers only when
   * several lookups all hit (the download fast path), and then counts its hits with `countHit`.
   */
  peekLive(key: K): V | undefined {
    return this.opts.feed && !this.opts.feed.changes.live ? undefined : this.peek(key);
  }

  /** Counts one hit, for a lookup made with `peekLive`. */
  countHit(): void {
    this.stats.hits++;
  }

  /** The current generation; pass it to `set` for a value read from the database after this call. */
  stamp(): number {
    this.sync();
    return this.generation;
  }

  /**
   * Stores `value` and returns it. With `since` (a `stamp()` taken before the value was read), a value whose
   * read began before a clear is returned but not stored: a change that committed meanwhile would otherwise
   * be hidden behind it until its entry expires.
   */
  set(key: K, value: V, since?: number): V {
    this.sync();
    if (since !== undefined && since !== this.generation) return value;
    const weight = this.opts.weigh?.(value) ?? 0;
    if (this.opts.maxWeight !== undefined && weight > this.opts.maxWeight / 4) return value; // too big to be worth it
    this.delete(key);
    this.entries.set(key, { value, expires: Date.now() + this.opts.ttlMs, weight });
    this.weight += weight;
    while (this.entries.size > this.opts.maxEntries || (this.opts.maxWeight !== undefined && this.weight > this.opts.maxWeight)) {
      const oldest = this.entries.keys().next().value as K;
      this.delete(oldest);
    }
    return value;
  }

  /** The cached value, or `load()`'s, which is cached unless it is undefined ("not found" is not remembered). */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const since = this.stamp();
    const value = await load();
    return value === undefined ? value : this.set(key, value, since);
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.weight -= entry.weight;
    this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.weight = 0;
  }
}
