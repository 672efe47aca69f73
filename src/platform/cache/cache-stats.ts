/**
 * Hits and misses of the in-process caches, by cache name, for the metrics endpoint. Plain counters in
 * memory: a cache lookup is on the hot path, so counting is one increment; the metrics read them only when
 * scraped. Process-wide (as Prometheus counters are): caches of the same name add up.
 */
export interface CacheStats {
  hits: number;
  misses: number;
}

const byName = new Map<string, CacheStats>();

/** The counters of the cache `name` (one object per name, shared by every cache of that name). */
export function cacheStats(name: string): CacheStats {
  let stats = byName.get(name);
  if (!stats) byName.set(name, (stats = { hits: 0, misses: 0 }));
  return stats;
}

/** Every named cache's counters, for a scrape. */
export function allCacheStats(): ReadonlyMap<string, Readonly<CacheStats>> {
  return byName;
}
