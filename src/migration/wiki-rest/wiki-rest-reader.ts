// Reads one space of a live wiki over its content REST into a SourceSpaceBundle: pages and blog posts (paged
// lists, with version, ancestors and history), the comments of each, each page's and blog post's view restriction,
// the members of the groups those name. Bodies come with the lists and are kept up to a budget; past it they
// are left out of memory and read again, one by one, when the writer asks for them.
import type { z } from 'zod';
import { isNotFound, SourceHttpError, type Query } from '../source-http.ts';
import type { JsonReads } from './retrying-reads.ts';
import type { SourceContent, SourceGroup, SourceItemNote, SourceRestriction, SourceSpaceBundle, SourceUser } from '../wiki/space-model.ts';
import { restContent, restContentList, restMemberList, restReadRestriction, type RestContent, type RestSpace } from './wiki-rest.schemas.ts';

/** Bodies kept from the lists, in UTF-16 code units (about twice the bytes): the rest are read on demand. */
const BODY_BUDGET = 32 * 1024 * 1024;
const PAGE_SIZE = 100;
const EXPAND = 'body.storage,version,ancestors,container,history';

/**
 * Every item of a wiki list: `start`/`limit` pages, each validated, until `_links.next` is absent or a page is
 * empty. The next start counts what was received, so a wiki that caps `limit` is still read whole.
 */
export async function* wikiList<T>(client: JsonReads, path: string, query: Query, schema: z.ZodType<{ results: T[]; _links?: { next?: string } | undefined }>): AsyncGenerator<T> {
  let start = 0;
  for (;;) {
    const page = await client.getJson(path, { ...query, start, limit: PAGE_SIZE }, schema);
    yield* page.results;
    start += page.results.length;
    if (page.results.length === 0 || page._links?.next === undefined) return;
  }
}

const date = (s: string | undefined): Date | undefined => {
  if (s === undefined) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
};

/** Parents before children (by depth of the ancestor chain), then blog posts, then comments (containers first). */
function inWriterOrder(items: SourceContent[], depth: Map<number, number>): SourceContent[] {
  const rank = (c: SourceContent) => (c.type === 'page' ? 0 : c.type === 'blogpost' ? 1 : 2);
  return items
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || (depth.get(a.c.id) ?? 0) - (depth.get(b.c.id) ?? 0) || a.i - b.i)
    .map(({ c }) => c);
}

export class SpaceReader {
  private readonly bodies = new Map<number, string>();
  private bodyChars = 0;
  private readonly users = new Map<string, SourceUser>();
  private readonly groupNames = new Set<string>();
  private readonly notImported: Record<string, number> = {};
  private readonly held: SourceItemNote[] = [];

  constructor(
    private readonly client: JsonReads,
    private readonly progress: (m: string) => void,
  ) {}

  private user(name: string | undefined, displayName?: string | null): string | undefined {
    if (!name) return undefined;
    const known = this.users.get(name.toLowerCase());
    if (!known) this.users.set(name.toLowerCase(), { name, ...(displayName ? { displayName } : {}) });
    else if (!known.displayName && displayName) known.displayName = displayName;
    return name;
  }

  private skip(reason: string, n = 1): void {
    if (n > 0) this.notImported[reason] = (this.notImported[reason] ?? 0) + n;
  }

  /** One content item of a list as the writer takes it; `containerId`: the page or blog post a comment was listed under. */
  private toSource(r: RestContent, containerId?: number): SourceContent {
    const first = r.version.number === 1;
    const creator = this.user(r.history?.createdBy?.username, r.history?.createdBy?.displayName) ?? (first ? this.user(r.version.by?.username, r.version.by?.displayName) : undefined);
    this.user(r.version.by?.username, r.version.by?.displayName);
    const parent = r.type === 'page' ? r.ancestors?.at(-1)?.id : undefined;
    const container = r.type !== 'comment' ? undefined : (containerId ?? (r.container?.id === undefined ? undefined : Number(r.container.id)));
    const position = r.extensions?.position;
    const out: SourceContent = { id: r.id, type: r.type, title: r.title, version: r.version.number };
    if (parent !== undefined) out.parentId = parent;
    if (container !== undefined && Number.isSafeInteger(container) && container > 0) out.containerId = container;
    if (typeof position === 'number' && Number.isSafeInteger(position)) out.position = position;
    if (creator !== undefined) out.creator = creator;
    const createdAt = date(r.history?.createdDate) ?? (first ? date(r.version.when) : undefined);
    if (createdAt) out.createdAt = createdAt;
    const updatedAt = date(r.version.when);
    if (updatedAt) out.updatedAt = updatedAt;
    this.skip('historical versions', r.version.number - 1);
    const body = r.body?.storage.value;
    if (body !== undefined && this.bodyChars + body.length <= BODY_BUDGET) {
      this.bodies.set(r.id, body);
      this.bodyChars += body.length;
    }
    return out;
  }

  /**
   * The view restriction of a page or blog post (undefined: none). Entries that name no user (a cloud wiki's
   * account ids without a user name) still restrict: when no entry has a name, the lists are empty and the
   * writer imports the content hidden rather than readable by the whole space.
   */
  private async restriction(id: number): Promise<SourceRestriction | undefined> {
    const r = await this.client.getJson(`rest/api/content/${id}/restriction/byOperation/read`, {}, restReadRestriction);
    const entries = (r.restrictions.user?.results ?? []).length + (r.restrictions.group?.results ?? []).length;
    const users = (r.restrictions.user?.results ?? []).map((u) => this.user(u.username, u.displayName)).filter((u): u is string => u !== undefined);
    const groups = (r.restrictions.group?.results ?? []).map((g) => g.name);
    for (const g of groups) this.groupNames.add(g);
    return entries > 0 ? { users, groups } : undefined;
  }

  /**
   * Pages whose parent the source did not list (one its user may not read, or not current): each goes under
   * its nearest listed ancestor, or to the top, and keeps the restrictions of the ancestors it skips. When the
   * source will not say who may read such an ancestor, the page is held back (and its descendants with it):
   * never readable by more people here. Answers the ids held back.
   */
  private async settleParents(pages: SourceContent[], ancestors: Map<number, number[]>): Promise<Set<number>> {
    const listed = new Set(pages.map((p) => p.id));
    const held = new Set<number>();
    const known = new Map<number, SourceRestriction | undefined | 'unknown'>();
    for (const page of pages) {
      const chain = [...(ancestors.get(page.id) ?? [])].reverse();
      // A listed parent keeps the chain as the source has it, unless that parent itself was held back.
      if (chain.length === 0 || (listed.has(chain[0]!) && !held.has(chain[0]!))) continue;
      const inherited: SourceRestriction[] = [];
      let parent: number | undefined;
      let why: string | undefined;
      for (const a of chain) {
        if (held.has(a)) why = `its ancestor page ${a} is held back`;
        else if (listed.has(a)) parent = a;
        else {
          if (!known.has(a)) known.set(a, await this.restriction(a).catch((err: unknown) => (err instanceof SourceHttpError && (err.kind === 'forbidden' || isNotFound(err)) ? 'unknown' : Promise.reject(err))));
          const r = known.get(a);
          if (r === 'unknown') why = `the source did not show who may read its ancestor page ${a}`;
          else if (r) inherited.push(r);
        }
        if (why !== undefined || parent !== undefined) break;
      }
      if (why !== undefined) {
        held.add(page.id);
        this.skip('pages held back (an ancestor the source did not hand over may restrict them)');
        this.held.push({ type: 'page', id: page.id, title: page.title, reason: why });
        continue;
      }
      if (parent === undefined) delete page.parentId;
      else page.parentId = parent;
      if (inherited.length > 0) page.inheritedRestrictions = inherited;
    }
    return held;
  }

  /** The members of a group; a wiki that does not let this user read them leaves the group empty (and says so). */
  private async group(name: string): Promise<SourceGroup> {
    const members: string[] = [];
    try {
      const path = `rest/api/group/${encodeURIComponent(name)}/member`;
      for await (const m of wikiList(this.client, path, {}, restMemberList)) {
        const user = this.user(m.username, m.displayName);
        if (user) members.push(user);
      }
    } catch (err) {
      if (!(err instanceof SourceHttpError) || (err.kind !== 'forbidden' && !isNotFound(err))) throw err;
      this.skip('group members (the source did not let them be read)');
    }
    return { name, members };
  }

  /** Reads the whole space. */
  async read(space: RestSpace): Promise<SourceSpaceBundle> {
    let content: SourceContent[] = [];
    const depth = new Map<number, number>();
    const ancestors = new Map<number, number[]>();
    let containers: number[] = [];
    for (const type of ['page', 'blogpost'] as const) {
      let n = 0;
      for await (const r of wikiList(this.client, 'rest/api/content', { spaceKey: space.key, type, expand: EXPAND }, restContentList)) {
        const item = this.toSource(r);
        const restriction = await this.restriction(item.id);
        if (restriction) item.viewRestrictions = restriction;
        depth.set(item.id, r.ancestors?.length ?? 0);
        if (type === 'page') ancestors.set(item.id, (r.ancestors ?? []).map((a) => a.id));
        content.push(item);
        containers.push(item.id);
        if (++n % PAGE_SIZE === 0) this.progress(`space ${space.key}: ${n} ${type}s read`);
      }
      if (n % PAGE_SIZE !== 0) this.progress(`space ${space.key}: ${n} ${type}s read`);
    }
    const pages = inWriterOrder(content, depth).filter((c) => c.type === 'page');
    const held = await this.settleParents(pages, ancestors);
    content = content.filter((c) => !held.has(c.id));
    containers = containers.filter((id) => !held.has(id));
    // Comments under their page or blog post, as the original wiki lists them (its content search has no
    // comment type); `depth=all` takes replies too, which are comments of the same container here.
    let comments = 0;
    for (const id of containers) {
      for await (const r of wikiList(this.client, `rest/api/content/${id}/child/comment`, { expand: EXPAND, depth: 'all' }, restContentList)) {
        if (r.type !== 'comment') continue;
        content.push(this.toSource(r, id));
        if (++comments % PAGE_SIZE === 0) this.progress(`space ${space.key}: ${comments} comments read`);
      }
    }
    if (comments % PAGE_SIZE !== 0) this.progress(`space ${space.key}: ${comments} comments read`);
    const groups: SourceGroup[] = [];
    for (const name of this.groupNames) groups.push(await this.group(name));
    const homePageId = space.homepage?.id;
    return {
      space: {
        ...(space.id === undefined ? {} : { id: space.id }),
        key: space.key,
        name: space.name,
        description: space.description?.plain?.value ?? '',
        ...(homePageId === undefined ? {} : { homePageId }),
      },
      content: inWriterOrder(content, depth),
      users: [...this.users.values()],
      groups,
      body: (id) => this.body(id),
      notImported: this.notImported,
      notImportedItems: this.held,
    };
  }

  private async body(id: number): Promise<string> {
    const kept = this.bodies.get(id);
    if (kept !== undefined) return kept;
    const r = await this.client.getJson(`rest/api/content/${id}`, { expand: 'body.storage' }, restContent);
    return r.body?.storage.value ?? '';
  }
}
