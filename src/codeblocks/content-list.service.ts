// Which content of a space holds code boxes (the web interface marks those pages and lists such comments):
// the wiki's own listing, narrowed to the ids the code-box index holds, so the one view rule decides what is
// listed and content the caller may not view is never counted, named or skipped visibly.
import type { Knex } from 'knex';
import type { AuthUser } from '../platform/auth/auth-user.ts';
import type { ContentType, ListFilter } from '../wiki/content-access.ts';
import type { ContentSummaryWithContainer } from '../wiki/content.repository.ts';
import type { Page } from '../wiki/paging.ts';
import { contentHoldingBoxes, countBoxes } from './codebox.repository.ts';

/** What the wiki's content service offers this listing (ContentService.summaries). */
export interface ContentSummaries {
  summaries(user: AuthUser, filter: ListFilter, start: number, limit: number): Promise<Page<ContentSummaryWithContainer>>;
}

export interface BoxedContent {
  id: number;
  type: ContentType;
  title: string;
  /** A comment's page or blog post. */
  container: { id: number; type: ContentType; title: string } | undefined;
  /** Code boxes in the content's current version, nested ones included. */
  boxes: number;
}

export interface ContentListParams {
  spaceKey: string;
  type: ContentType;
  start: number;
  limit: number;
}

export class BoxedContentService {
  constructor(
    private readonly knex: Knex,
    private readonly content: ContentSummaries,
  ) {}

  /** One page (by id) of the content of this type in the space that the user may view and that holds boxes. */
  async list(user: AuthUser, p: ContentListParams): Promise<Page<BoxedContent>> {
    const page = await this.content.summaries(user, { spaceKey: p.spaceKey, type: p.type, among: contentHoldingBoxes(this.knex) }, p.start, p.limit);
    const counts = await countBoxes(this.knex, page.results.map((c) => c.id));
    return {
      ...page,
      results: page.results.map((c) => ({
        id: c.id,
        type: c.type,
        title: c.title,
        container: c.container && { id: c.container.id, type: c.container.type, title: c.container.title },
        // A box deleted between the two reads counts 0; the next listing leaves the content out.
        boxes: counts.get(c.id) ?? 0,
      })),
    };
  }
}
