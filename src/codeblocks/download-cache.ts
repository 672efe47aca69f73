// Caches of the download hot path. A fleet fetching the same blocks at boot asks the same two questions
// thousands of times: may this user view this content, and what does this box hold. Both answers are kept
// in memory and dropped on every wiki or directory change anywhere in the cluster (see BoundedCache and the
// change feed), so the answer after a save, a restriction or a group change is always the new one.
import type { Knex } from 'knex';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { BoundedCache } from '../platform/cache/bounded-cache.ts';
import type { CachedBody } from '../platform/http/cached-body.ts';
import { DIRECTORY_TOPIC } from '../platform/auth/auth-cache.ts';
import { WIKI_TOPIC } from '../wiki/wiki-write.ts';
import type { ViewDecision } from '../wiki/content-access.ts';
import type { BoxForDownload, BoxForList, CodeboxReader } from './codebox.repository.ts';
import type { DecideView } from './download.service.ts';


const TTL_MS = 5 * 60_000;

/** decideView with its answers remembered per user and content. */
export function cachedDecideView(decide: DecideView, changes: ChangeFeed): DecideView {
  const cache = new BoundedCache<string, ViewDecision>({
    name: 'codeblocks_view_decisions',
    ttlMs: TTL_MS,
    maxEntries: 50_000,
    feed: { changes, topics: [WIKI_TOPIC, DIRECTORY_TOPIC] },
  });
  return (q: Knex, user, contentId) =>
    user ? cache.getOrLoad(`${user.id}:${contentId}`, () => decide(q, user, contentId)) : decide(q, user, contentId);
}

/** Rendered block texts (or list bodies) with their ETags, at most 32 MiB held; dropped on every wiki or directory change. */
export function blockTextCache(changes: ChangeFeed, name: string): BoundedCache<string, CachedBody> {
  return new BoundedCache<string, CachedBody>({
    name,
    ttlMs: TTL_MS,
    maxEntries: 20_000,
    maxWeight: 32 * 1024 * 1024,
    weigh: (body) => body.bytes.length,
    feed: { changes, topics: [WIKI_TOPIC, DIRECTORY_TOPIC] },
  });
}

/** The code-box index with rows remembered per request shape; at most 64 Mi characters of templates held. */
export function cachedCodeboxes(repo: CodeboxReader, changes: ChangeFeed): CodeboxReader {
  const feed = { changes, topics: [WIKI_TOPIC] };
  const downloads = new BoundedCache<string, BoxForDownload | undefined>({
    name: 'codeblocks_boxes',
    ttlMs: TTL_MS,
    maxEntries: 5_000,
    maxWeight: 64 * 1024 * 1024,
    weigh: (box) => box?.template?.length ?? 0,
    feed,
  });
  const lists = new BoundedCache<string, BoxForList | undefined>({ name: 'codeblocks_list_boxes', ttlMs: TTL_MS, maxEntries: 5_000, feed });
  // JSON keys: a section name may contain any character, including the separators a joined string would use.
  return {
    findForDownload: (contentId, macroId, section) =>
      downloads.getOrLoad(JSON.stringify([contentId, macroId, section ?? null]), () => repo.findForDownload(contentId, macroId, section)),
    findForList: (contentId, macroId) => lists.getOrLoad(JSON.stringify([contentId, macroId]), () => repo.findForList(contentId, macroId)),
  };
}
