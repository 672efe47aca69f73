import type { Knex } from 'knex';
import type { AuthUser } from '../platform/auth/auth-user.ts';

export type ContentType = 'page' | 'blogpost' | 'comment';

export type ViewDecision =
  | {
      state: 'allowed';
      content: { id: number; type: ContentType; title: string; spaceKey: string; spaceName: string };
    }
  | { state: 'missing' | 'trashed' | 'denied' };

interface DecisionRow {
  id: number;
  type: ContentType;
  title: string;
  space_key: string;
  space_name: string;
  trashed: boolean;
  space_read: boolean;
  restricted_out: boolean;
}

/*
 * One round trip. `chain` walks from the content up to the root of its tree: a comment's container first,
 * then parent pages. UNION (not UNION ALL) makes a corrupt parent cycle terminate instead of looping, because
 * a revisited row is identical and so is dropped. `mine` holds the caller's groups. A level of the chain is
 * "restricted out" when it is restricted (flag set, or restriction rows present) and no row names the caller
 * or one of its groups. The flag keeps a restriction in force after all its users/groups were deleted.
 */
const DECIDE_SQL = `
with recursive chain as (
  select c.id, c.status, c.parent_id, c.container_id, c.read_restricted from contents c where c.id = :contentId
  union
  select p.id, p.status, p.parent_id, p.container_id, p.read_restricted
    from contents p join chain on p.id = coalesce(chain.container_id, chain.parent_id)
),
mine as (select gm.group_id from group_members gm where gm.user_id = :userId)
select t.id, t.type, t.title, s.key as space_key, s.name as space_name,
  (s.status <> 'current' or exists (select 1 from chain where chain.status <> 'current')) as trashed,
  exists (
    select 1 from space_permissions sp
     where sp.space_id = t.space_id and sp.operation = 'read' and sp.target = 'space'
       and (sp.user_id = :userId or sp.group_id in (select group_id from mine))
  ) as space_read,
  exists (
    select 1 from chain
     where (chain.read_restricted or exists (select 1 from content_read_restrictions r where r.content_id = chain.id))
       and not exists (
         select 1 from content_read_restrictions r
          where r.content_id = chain.id
            and (r.user_id = :userId or r.group_id in (select group_id from mine))
       )
  ) as restricted_out
from contents t join spaces s on s.id = t.space_id
where t.id = :contentId`;

/**
 * THE view-permission function (host-api.md, Wiki rule 4); every feature asks this one, so "may view"
 * has one meaning everywhere. Viewable = `read` on the content's space for the user or one of its groups,
 * AND membership in the read restriction of the content and of every container/ancestor that has one.
 * A comment follows its container. Trashed content (itself, its container or an ancestor) is viewable by
 * nobody, and so is content of a deleted (trashed) space. Anonymous callers are never allowed; administrators
 * get no implicit view right.
 */
export async function decideView(q: Knex, user: AuthUser | undefined, contentId: number): Promise<ViewDecision> {
  if (!Number.isSafeInteger(contentId) || contentId <= 0 || contentId > 2147483647) return { state: 'missing' };
  // Anonymous: still tell missing from existing content so callers can answer 404 vs 401 consistently.
  const userId = user?.id ?? 0;
  const result = (await q.raw(DECIDE_SQL, { contentId, userId })) as { rows: DecisionRow[] };
  const row = result.rows[0];
  if (row === undefined) return { state: 'missing' };
  if (row.trashed) return { state: 'trashed' };
  if (user === undefined || !row.space_read || row.restricted_out) return { state: 'denied' };
  return {
    state: 'allowed',
    content: { id: row.id, type: row.type, title: row.title, spaceKey: row.space_key, spaceName: row.space_name },
  };
}

/*
 * The same rule as DECIDE_SQL, for a set: every candidate content (current, in a current space the caller
 * reads, matching the filters) walks its own chain, and is kept when no level of it is trashed or restricted
 * out. `listViewable` below and `decideView` must agree on every row; test/integration/wiki/listing.test.ts
 * compares them.
 */
const LIST_SQL = `
with recursive mine as (select gm.group_id from group_members gm where gm.user_id = :userId),
readable as (
  select sp.space_id from space_permissions sp
   where sp.operation = 'read' and sp.target = 'space'
     and (sp.user_id = :userId or sp.group_id in (select group_id from mine))
),
cand as (
  select c.id from contents c join spaces s on s.id = c.space_id
   where c.status = 'current' and s.status = 'current' and c.type = :type
     and c.space_id in (select space_id from readable)
     and (:spaceKey::text is null or s.key = :spaceKey::text)
     and (:title::text is null or c.title = :title::text)
),
chain as (
  select cand.id as start_id, c.id, c.status, c.parent_id, c.container_id, c.read_restricted
    from cand join contents c on c.id = cand.id
  union
  select chain.start_id, p.id, p.status, p.parent_id, p.container_id, p.read_restricted
    from contents p join chain on p.id = coalesce(chain.container_id, chain.parent_id)
)
select cand.id from cand
 where not exists (select 1 from chain where chain.start_id = cand.id and chain.status <> 'current')
   and not exists (
     select 1 from chain
      where chain.start_id = cand.id
        and (chain.read_restricted or exists (select 1 from content_read_restrictions r where r.content_id = chain.id))
        and not exists (
          select 1 from content_read_restrictions r
           where r.content_id = chain.id and (r.user_id = :userId or r.group_id in (select group_id from mine))
        )
   )
 order by cand.id
 offset :start limit :limitPlusOne`;

export interface ListFilter {
  spaceKey?: string | undefined;
  type: ContentType;
  title?: string | undefined;
}

/**
 * Ids of one page of the content the user may view (decideView's rule), by id; one more than `limit` when a
 * next page exists. Nothing is listed for anonymous callers.
 */
export async function listViewable(q: Knex, user: AuthUser, filter: ListFilter, start: number, limit: number): Promise<number[]> {
  const result = (await q.raw(LIST_SQL, {
    userId: user.id,
    type: filter.type,
    spaceKey: filter.spaceKey ?? null,
    title: filter.title ?? null,
    start,
    limitPlusOne: limit + 1,
  })) as { rows: { id: number }[] };
  return result.rows.map((r) => r.id);
}
