import type { Knex } from 'knex';
import type { Router } from 'express';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import type { ContentIndexers } from './content-indexer.ts';
import { SpacesService } from './spaces.service.ts';
import { ContentService } from './content.service.ts';
import { RestrictionsService } from './restrictions.service.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { spacesEndpoints } from './spaces.endpoints.ts';
import { contentEndpoints } from './content.endpoints.ts';

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

/** Every endpoint of the wiki host REST, in the order of its description. */
export const wikiEndpoints = [...spacesEndpoints, ...contentEndpoints];

/**
 * The router of the wiki host REST, for the `/rest/api` mount. `/content` is closed to anonymous callers as a
 * whole: an unknown path or method below it answers 401 to them, 404 only to a user.
 */
export function createWikiRouters(wiki: WikiServices, baseUrl: string): Router[] {
  return [buildRouter(wikiEndpoints, { ...wiki, baseUrl }, { mountedAt: '/rest/api', closedPrefixes: ['/content'] })];
}

/** The wiki mount takes large bodies: a code-box template alone may be 1 MiB, and a page holds many. */
export const WIKI_BODY_LIMIT = 16 * 1024 * 1024;
