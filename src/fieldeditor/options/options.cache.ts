import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { cacheStats } from '../../platform/cache/cache-stats.ts';

const gzipAsync = promisify(gzip);

/** One serialised list and the version it shows; the gzip form is made on first demand. */
export class CachedList {
  private gz: Promise<Buffer> | undefined;

  constructor(
    readonly version: number,
    readonly body: Buffer,
  ) {}

  /** The body gzip-compressed (computed once per list version, off the event loop). */
  gzipped(): Promise<Buffer> {
    this.gz ??= gzipAsync(this.body, { level: 6 });
    return this.gz;
  }
}

/**
 * Serialised option lists by (context, parent) and the list version they show. A reader asks the database
 * for the list's current version (one indexed lookup) and reuses the cached JSON when it matches, so a
 * 10,000-option list is not rebuilt per request; a write anywhere in the cluster raises the version in the
 * database, so no node can serve a stale list. Bounded by total size; least recently used entries go first.
 */
export class OptionListCache {
  private readonly entries = new Map<string, CachedList>();
  private bytes = 0;
  /** Hits and misses for the metrics (`addon_pair_cache_hits_total{cache="fieldeditor_option_lists"}`). */
  private readonly stats = cacheStats('fieldeditor_option_lists');

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  private static key(contextId: number, parentId: number | null): string {
    return `${contextId}:${parentId ?? 0}`;
  }

  get(contextId: number, parentId: number | null, version: number): CachedList | undefined {
    const key = OptionListCache.key(contextId, parentId);
    const hit = this.entries.get(key);
    if (!hit || hit.version !== version) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    // Re-insert to mark it most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Stores a freshly built list (unless a newer one is already cached) and returns what to serve. */
  set(contextId: number, parentId: number | null, version: number, body: Buffer): CachedList {
    const entry = new CachedList(version, body);
    const key = OptionListCache.key(contextId, parentId);
    const old = this.entries.get(key);
    if (old) {
      // Never replace a newer list by an older one that a slower request built.
      if (old.version > version) return entry;
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    if (body.length > this.maxBytes) return entry;
    this.entries.set(key, entry);
    this.bytes += body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
    return entry;
  }
}
