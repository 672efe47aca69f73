// The wiki host as a feature (platform/feature.ts): spaces, content, versions and restrictions, their REST under
// `/rest/api` (Confluence-style errors), their parts of the import document, and the registry of content
// indexers that add-ons fill (content-indexer.ts).
import type { Feature, FeatureContext } from '../platform/feature.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import type { OperationDoc } from '../platform/openapi/operation.ts';
import { ContentIndexers } from './content-indexer.ts';
import { SpacesService } from './spaces.service.ts';
import { ContentService } from './content.service.ts';
import { RestrictionsService } from './restrictions.service.ts';
import { spacesEndpoints } from './spaces.endpoints.ts';
import { contentEndpoints } from './content.endpoints.ts';
import { groupMemberEndpoints, type GroupMembersDeps } from './group-members.endpoints.ts';
import { DirectoryPages } from '../directory/directory-pages.service.ts';
import { wikiImports } from './wiki.importer.ts';
import { renderWikiJson } from './wiki-json.renderer.ts';
import { leaveVersionedPaths } from './versioned-paths.ts';

export interface WikiServices {
  spaces: SpacesService;
  content: ContentService;
  restrictions: RestrictionsService;
  /** Derived data of page bodies that add-ons keep, written in each save (registered from their hooks). */
  indexers: ContentIndexers;
}

/** Every endpoint of the wiki host REST, in the order of its description. The group members are the wiki's
 *  read of the directory (what a live wiki import reads, issue 31). */
export const wikiEndpoints: OperationDoc[] = [...spacesEndpoints, ...contentEndpoints, ...groupMemberEndpoints];

/** The wiki mount takes large bodies: a code-box template alone may be 1 MiB, and a page holds many. */
export const WIKI_BODY_LIMIT = 16 * 1024 * 1024;

const WIKI_API = '/rest/api';

export function createWikiFeature({ db, config }: FeatureContext): Feature<WikiServices> {
  const indexers = new ContentIndexers();
  const content = new ContentService(db.knex, db.changes, indexers);
  const wiki: WikiServices = {
    spaces: new SpacesService(db.knex, db.changes),
    content,
    restrictions: new RestrictionsService(db.knex, db.changes, content),
    indexers,
  };
  // Only `members` is used, which does not look at the lockout length.
  const groupDeps: GroupMembersDeps = { groupMembers: new DirectoryPages(db.knex, config.lockoutMinutes), baseUrl: config.baseUrl };
  return {
    name: 'wiki',
    services: wiki,
    importParts: wikiImports(indexers),
    http: () => ({
      apis: [
        {
          // After the tracker host's /rest/api/2 (features mount in order), which therefore never falls through here.
          path: WIKI_API,
          render: renderWikiJson,
          // `/content` is closed to anonymous callers as a whole: an unknown path or method below it answers 401
          // to them, 404 only to a user.
          routers: [
            buildRouter([...spacesEndpoints, ...contentEndpoints], { ...wiki, baseUrl: config.baseUrl }, { mountedAt: WIKI_API, closedPrefixes: ['/content'] }),
            buildRouter(groupMemberEndpoints, groupDeps, { mountedAt: WIKI_API }),
          ],
          bodyLimit: WIKI_BODY_LIMIT,
          // A versioned path (`/rest/api/3/…`) is the tracker's: its 404 is the tracker's too (issue 26).
          before: [leaveVersionedPaths],
        },
      ],
    }),
  };
}
