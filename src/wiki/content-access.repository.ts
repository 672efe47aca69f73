// The SQL of the view rule (content-access.ts decides from what these statements answer). Both statements walk
// the same chain of containers and parents; content-access.ts keeps them in agreement (see the comments).
import type { Knex } from 'knex';

export type ContentType = 'page' | 'blogpost' | 'comment';

export interface DecisionRow {
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

/** The row DECIDE_SQL answers for one content and caller (undefined: no such content). */
export async function selectViewDecision(q: Knex, contentId: number, userId: number): Promise<DecisionRow | undefined> {
  const result = (await q.raw(DECIDE_SQL, { contentId, userId })) as { rows: DecisionRow[] };
  return result.rows[0];
}

/*
 * The same rule as DECIDE_SQL, for a set: every candidate content (current, in a current space the caller
 * reads, matching the filters) walks its own chain, and is kept when no level of it is trashed or restricted
 * out. `listViewable` and `decideView` (content-access.ts) must agree on every row; test/integration/wiki/listing.test.ts
 * compares them.
 */
const LIST_SQL_TEMPLATE = `
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
     /*AMONG*/
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

// `among` narrows the candidates to the ids a subquery selects (an add-on's index, e.g. the code boxes); the
// rule itself is the same text in both statements.
const LIST_SQL = LIST_SQL_TEMPLATE.replace('/*AMONG*/', '');
const LIST_AMONG_SQL = LIST_SQL_TEMPLATE.replace('/*AMONG*/', 'and c.id in :among');

/** One page of ids LIST_SQL answers (one more than the page when a next page exists). */
export async function selectViewableIds(
  q: Knex,
  p: { userId: number; type: ContentType; spaceKey: string | null; title: string | null; start: number; limitPlusOne: number; among?: Knex.QueryBuilder },
): Promise<number[]> {
  // A query builder as a named binding is written into the statement as a parenthesised subquery (its own
  // values stay bound).
  const { among, ...rest } = p;
  const result = (await (among ? q.raw(LIST_AMONG_SQL, { ...rest, among }) : q.raw(LIST_SQL, rest))) as { rows: { id: number }[] };
  return result.rows.map((r) => r.id);
}
