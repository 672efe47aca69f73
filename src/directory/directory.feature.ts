// The directory as a feature (platform/feature.ts): users, groups and personal access tokens, their REST under
// the tracker host's `/rest/api/2` and `/rest/pat`, and the first part of the import document.
import type { Feature, FeatureContext } from '../platform/feature.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { renderHostJson } from '../platform/http/renderers.ts';
import { DirectoryService } from './directory.service.ts';
import { TokensService } from './tokens.service.ts';
import { directoryImport } from './directory.importer.ts';
import { directoryEndpoints } from './directory.endpoints.ts';
import { tokenEndpoints } from './tokens.endpoints.ts';
import { HOST_API, HOST_API_ALIASES } from './host-api.paths.ts';

export interface DirectoryServices {
  directory: DirectoryService;
  tokens: TokensService;
}

export function createDirectoryFeature({ db, hasher, config }: FeatureContext): Feature<DirectoryServices> {
  const services = { directory: new DirectoryService(db.knex, hasher, db.changes), tokens: new TokensService(db.knex, db.changes) };
  const { baseUrl } = config;
  return {
    name: 'directory',
    services,
    importParts: [directoryImport],
    http: () => ({
      apis: [
        {
          path: HOST_API,
          aliases: HOST_API_ALIASES,
          render: renderHostJson,
          routers: [buildRouter(directoryEndpoints, { directory: services.directory, baseUrl }, { mountedAt: HOST_API })],
        },
        {
          path: '/rest/pat',
          render: renderHostJson,
          // Everything below /latest is for signed-in users, also a path no endpoint has.
          routers: [buildRouter(tokenEndpoints, { tokens: services.tokens }, { mountedAt: '/rest/pat', closedPrefixes: ['/latest'] })],
        },
      ],
    }),
  };
}
