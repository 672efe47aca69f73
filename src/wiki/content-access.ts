import type { Knex } from 'knex';
import type { AuthUser } from '../platform/auth/auth-user.ts';
import { MAX_CONTENT_ID } from '../platform/http/id.schemas.ts';
import { selectViewableIds, selectViewDecision, type ContentType } from './content-access.repository.ts';

export type { ContentType } from './content-access.repository.ts';

export type ViewDecision =
  | {
      state: 'allowed';
      content: { id: number; type: ContentType; title: string; spaceKey: string; spaceName: string };
    }
  | { state: 'missing' | 'trashed' | 'denied' };


/**
 * THE view-permission function (host-api.md, Wiki rule 4); every feature asks this one, so "may view"
 * has one meaning everywhere. Viewable = `read` on the content's space for the user or one of its groups,
 * AND membership in the read restriction of the content and of every container/ancestor that has one.
 * A comment follows its container. Trashed content (itself, its container or an ancestor) is viewable by
 * nobody, and so is content of a deleted (trashed) space. Anonymous callers are never allowed; administrators
 * get no implicit view right.
 */
export async function decideView(q: Knex, user: AuthUser | undefined, contentId: number): Promise<ViewDecision> {
  if (!Number.isSafeInteger(contentId) || contentId <= 0 || contentId > MAX_CONTENT_ID) return { state: 'missing' };
  // Anonymous: still tell missing from existing content so callers can answer 404 vs 401 consistently.
  const userId = user?.id ?? 0;
  const row = await selectViewDecision(q, contentId, userId);
  if (row === undefined) return { state: 'missing' };
  if (row.trashed) return { state: 'trashed' };
  if (user === undefined || !row.space_read || row.restricted_out) return { state: 'denied' };
  return {
    state: 'allowed',
    content: { id: row.id, type: row.type, title: row.title, spaceKey: row.space_key, spaceName: row.space_name },
  };
}

export interface ListFilter {
  spaceKey?: string | undefined;
  type: ContentType;
  title?: string | undefined;
  /**
   * Only content whose id this subquery selects: how an add-on lists the viewable content its own index holds
   * (the code boxes) without a second view rule. The wiki never looks inside it.
   */
  among?: Knex.QueryBuilder | undefined;
}

/**
 * Ids of one page of the content the user may view (decideView's rule), by id; one more than `limit` when a
 * next page exists. Nothing is listed for anonymous callers.
 */
export async function listViewable(q: Knex, user: AuthUser, filter: ListFilter, start: number, limit: number): Promise<number[]> {
  return selectViewableIds(q, { userId: user.id, type: filter.type, spaceKey: filter.spaceKey ?? null, title: filter.title ?? null, start, limitPlusOne: limit + 1, ...(filter.among ? { among: filter.among } : {}) });
}
