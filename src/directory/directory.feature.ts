// The directory as a feature (platform/feature.ts): users, groups and personal access tokens, their REST under
// the tracker host's `/rest/api/2` and `/rest/pat`, and the first part of the import document.
import type { Feature, FeatureContext } from '../platform/feature.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { renderHostJson } from '../platform/http/renderers.ts';
import { DirectoryService } from './directory.service.ts';
import { TokensService } from './tokens.service.ts';
import { directoryImport } from './directory.importer.ts';
import { directoryEndpoints } from './directory.endpoints.ts';
import { adminTokenEndpoints, userTokenEndpoints } from './tokens.endpoints.ts';
import { DirectoryHooks } from './directory-hooks.ts';
import { DirectoryPages } from './directory-pages.service.ts';
import { OwnPasswordService } from './own-password.service.ts';
import { PasswordPolicy } from './password-policy.ts';
import { HOST_API, HOST_API_ALIASES } from './host-api.paths.ts';

export interface DirectoryServices {
  directory: DirectoryService;
  tokens: TokensService;
}

export function createDirectoryFeature({ db, hasher, config, authenticator }: FeatureContext): Feature<DirectoryServices> {
  // One set of hooks for users, groups and tokens: the audit trail and the deletions' work of other features.
  const hooks = new DirectoryHooks();
  const services = { directory: new DirectoryService(db.knex, hasher, db.changes, hooks, new PasswordPolicy(config.passwordMinLength)), tokens: new TokensService(db.knex, db.changes, hooks) };
  const { baseUrl } = config;
  const deps = {
    directory: services.directory,
    pages: new DirectoryPages(db.knex, config.lockoutMinutes),
    ownPassword: new OwnPasswordService(authenticator, services.directory),
    baseUrl,
  };
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
          routers: [buildRouter(directoryEndpoints, deps, { mountedAt: HOST_API })],
        },
        {
          path: '/rest/pat',
          render: renderHostJson,
          // Everything below /latest is for signed-in users, also a path no endpoint has.
          // The administrators' router comes second: the first one's `/latest` guard has refused anonymous callers.
          routers: [
            buildRouter(userTokenEndpoints, { tokens: services.tokens }, { mountedAt: '/rest/pat', closedPrefixes: ['/latest'] }),
            buildRouter(adminTokenEndpoints, { tokens: services.tokens }, { mountedAt: '/rest/pat', closedPrefixes: ['/latest/admin'] }),
          ],
        },
      ],
    }),
  };
}
