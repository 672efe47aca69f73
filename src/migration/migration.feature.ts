// The migration as a feature (platform/feature.ts): the administrator's upload of a wiki space export under
// /rest/addon-pair/1 (the host's JSON errors). The command line's `import-from` uses the same writers
// (cli/import-from.command.ts). It depends on the wiki and directory; nothing but the composition depends on it.
import type { Feature, FeatureContext } from '../platform/feature.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { renderHostJson } from '../platform/http/renderers.ts';
import type { ContentIndexers } from '../wiki/content-indexer.ts';
import { MigrationService } from './migration.service.ts';
import { migrationEndpoints } from './migration.endpoints.ts';
import { MIGRATION_API, WIKI_EXPORT_UPLOAD } from './migration.schemas.ts';

export interface MigrationServices {
  migration: MigrationService;
}

export function createMigrationFeature({ config, db, hasher, log }: FeatureContext, wiki: { indexers: ContentIndexers }): Feature<MigrationServices> {
  const progressLog = log.child({ feature: 'migration' });
  const migration = new MigrationService({ db, hasher, contentIndexers: wiki.indexers }, config.migrationUploadMaxBytes, (m) => progressLog.debug(m), config.wikiExportMaxTextChars);
  return {
    name: 'migration',
    services: { migration },
    http: () => ({
      apis: [
        {
          path: MIGRATION_API,
          render: renderHostJson,
          // The export is the body, spooled to a file by the route under its own limit (upload.ts).
          uploads: [WIKI_EXPORT_UPLOAD],
          routers: [buildRouter(migrationEndpoints, { migration }, { mountedAt: MIGRATION_API, closedPrefixes: ['/migration'] })],
        },
      ],
    }),
  };
}
