import type { Knex } from 'knex';
import type { Router } from 'express';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import type { ContentIndexers } from './content-indexer.ts';
import { SpacesService } from './spaces.service.ts';
import { ContentService } from './content.service.ts';
import { RestrictionsService } from './restrictions.service.ts';
import { createSpacesRouter } from './spaces.routes.ts';
import { createContentRouter } from './content.routes.ts';

export interface WikiServices {
  spaces: SpacesService;
  content: ContentService;
  restrictions: RestrictionsService;
}

/** `indexers`: derived data of page bodies that add-ons keep (content-indexer.ts), written in each save. */
export function createWikiServices(knex: Knex, changes: ChangeFeed, indexers: ContentIndexers): WikiServices {
  const content = new ContentService(knex, changes, indexers);
  return { spaces: new SpacesService(knex, changes), content, restrictions: new RestrictionsService(knex, changes, content) };
}

/** The routers of the wiki host REST, for the `/rest/api` mount. */
export function createWikiRouters(wiki: WikiServices, baseUrl: string): Router[] {
  return [createSpacesRouter({ spaces: wiki.spaces, baseUrl }), createContentRouter({ ...wiki, baseUrl })];
}

/** The wiki mount takes large bodies: a code-box template alone may be 1 MiB, and a page holds many. */
export const WIKI_BODY_LIMIT = 16 * 1024 * 1024;
