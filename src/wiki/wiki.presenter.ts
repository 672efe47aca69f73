import type { SpaceRow } from './spaces.repository.ts';
import type { ContentSummary } from './content.repository.ts';
import type { ContentView } from './content.service.ts';
import type { ReadRestriction } from './restrictions.repository.ts';

// JSON shapes of the Confluence REST resources (ids of content as digit strings, `_links` with `base`).

export function presentSpace(baseUrl: string, s: Pick<SpaceRow, 'id' | 'key' | 'name'> & { description?: string }) {
  return {
    id: s.id,
    key: s.key,
    name: s.name,
    type: 'global',
    ...(s.description === undefined ? {} : { description: { plain: { value: s.description, representation: 'plain' } } }),
    _links: { self: `${baseUrl}/rest/api/space/${encodeURIComponent(s.key)}`, webui: `/display/${encodeURIComponent(s.key)}`, base: baseUrl },
  };
}

function webui(c: { id: number; type: string; container_id?: number | null }): string {
  if (c.type === 'comment' && c.container_id) return `/pages/viewpage.action?pageId=${c.container_id}#comment-${c.id}`;
  return `/pages/viewpage.action?pageId=${c.id}`;
}

export function presentSummary(baseUrl: string, c: ContentSummary) {
  return {
    id: String(c.id),
    type: c.type,
    status: c.status,
    title: c.title,
    _links: { self: `${baseUrl}/rest/api/content/${c.id}`, webui: webui(c) },
  };
}

/**
 * Content JSON. `space` and `version` are always there (the host's default expansions); `body.storage`,
 * `ancestors` and `container` when `expand` names them. A page's or blog post's container is its space.
 */
export function presentContent(baseUrl: string, view: ContentView, expand: ReadonlySet<string>) {
  const r = view.record;
  const space = presentSpace(baseUrl, { id: r.space_id, key: r.space_key, name: r.space_name });
  const out: Record<string, unknown> = {
    id: String(r.id),
    type: r.type,
    status: r.status,
    title: r.title,
    space,
    version: {
      number: r.version,
      when: new Date(r.updated_at).toISOString(),
      minorEdit: false,
      ...(r.editor_name ? { by: { type: 'known', username: r.editor_name, displayName: r.editor_display_name } } : {}),
    },
  };
  if (expand.has('body') || expand.has('body.storage')) {
    out.body = { storage: { value: r.body, representation: 'storage' } };
  }
  if (expand.has('history')) {
    // The original wiki's creation record: who made version 1, and when.
    out.history = {
      latest: true,
      ...(r.creator_name ? { createdBy: { type: 'known', username: r.creator_name, displayName: r.creator_display_name } } : {}),
      createdDate: new Date(r.created_at).toISOString(),
    };
  }
  if (expand.has('ancestors')) out.ancestors = (view.ancestors ?? []).map((a) => presentSummary(baseUrl, a));
  if (expand.has('container')) out.container = view.container ? presentSummary(baseUrl, view.container) : space;
  if (r.type === 'comment' && r.container_id !== null) out.extensions = { location: 'footer' };
  out._links = { self: `${baseUrl}/rest/api/content/${r.id}`, webui: webui(r), base: baseUrl };
  out._expandable = Object.fromEntries(
    ['body', 'ancestors', 'container']
      .filter((k) => !(k === 'body' ? 'body' in out : expand.has(k)))
      .map((k) => [k, k === 'body' ? '' : `/rest/api/content/${r.id}`]),
  );
  return out;
}

export function presentReadRestriction(baseUrl: string, id: number, r: ReadRestriction) {
  return {
    operation: 'read',
    restrictions: {
      user: {
        results: r.users.map((u) => ({ type: 'known', username: u.name, displayName: u.display_name })),
        size: r.users.length,
      },
      group: { results: r.groups.map((g) => ({ type: 'group', name: g.name })), size: r.groups.length },
    },
    _links: { self: `${baseUrl}/rest/api/content/${id}/restriction/byOperation/read`, base: baseUrl },
  };
}

/**
 * A page of a host list: `results`, `start`, `limit`, `size` (results on this page) and `_links` with `base`,
 * `context`, `self` and, when there are more, `next` (relative to `base`: the same query with the next
 * `start`), as the wiki host writes them.
 */
export function presentPage<T>(
  baseUrl: string,
  path: string,
  query: Record<string, unknown>,
  page: { results: T[]; start: number; limit: number; hasMore: boolean },
  present: (item: T) => unknown,
) {
  const link = (start: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (k !== 'start' && k !== 'limit' && typeof v === 'string') params.set(k, v);
    }
    params.set('limit', String(page.limit));
    params.set('start', String(start));
    return `${path}?${params.toString()}`;
  };
  const context = new URL(baseUrl).pathname.replace(/\/$/, '');
  return {
    results: page.results.map(present),
    start: page.start,
    limit: page.limit,
    size: page.results.length,
    _links: {
      base: baseUrl,
      context,
      self: `${baseUrl}${link(page.start)}`,
      ...(page.hasMore ? { next: link(page.start + page.limit) } : {}),
    },
  };
}
