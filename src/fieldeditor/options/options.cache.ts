import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { BoundedCache } from '../../platform/cache/bounded-cache.ts';
import type { CachedBody } from '../../platform/http/cached-body.ts';
import type { PeekedHit } from '../../platform/http/fast-path.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { FIELD_OPTIONS_TOPIC } from '../shared/fieldeditor.topics.ts';

/**
 * Serialised option lists (U4, U9, C1) by context and parent, with their ETag and compressed forms
 * (CachedBody), so a list read is answered from memory. Every option or default write announces
 * FIELD_OPTIONS_TOPIC after it commits, and context deletions and imports the tracker topic; either empties
 * the cache on every node before the write answers. At most 64 MiB of JSON held.
 */
const keyOf = (contextId: number, parentId: number | null) => `${contextId}:${parentId ?? 0}`;

export class OptionListCache {
  private readonly cache: BoundedCache<string, CachedBody>;

  constructor(changes: ChangeFeed, maxBytes = 64 * 1024 * 1024) {
    this.cache = new BoundedCache<string, CachedBody>({
      name: 'fieldeditor_option_lists',
      ttlMs: 5 * 60_000,
      maxEntries: 20_000,
      maxWeight: maxBytes,
      weigh: (b) => b.bytes.length,
      feed: { changes, topics: [FIELD_OPTIONS_TOPIC, TRACKER_TOPIC] },
    });
  }

  list(contextId: number, parentId: number | null, load: () => Promise<CachedBody>): Promise<CachedBody> {
    return this.cache.getOrLoad(keyOf(contextId, parentId), load);
  }

  /** The cached list usable now, uncounted until `confirm` (for the option-list fast path). */
  peek(contextId: number, parentId: number | null): PeekedHit<CachedBody> | undefined {
    const body = this.cache.peekLive(keyOf(contextId, parentId));
    return body && { value: body, confirm: () => this.cache.countHit() };
  }
}
