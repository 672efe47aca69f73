// The tracker host as a feature (platform/feature.ts): projects, issue types, custom fields and contexts, their
// REST beside the directory's under `/rest/api/2`, and their parts of the import document.
import type { Feature, FeatureContext } from '../platform/feature.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { renderHostJson } from '../platform/http/renderers.ts';
import { HOST_API, HOST_API_ALIASES } from '../directory/host-api.paths.ts';
import { TrackerService } from './tracker.service.ts';
import { trackerCatalogImport, trackerFieldsImport } from './tracker.importer.ts';
import { trackerEndpoints } from './tracker.endpoints.ts';

export function createTrackerFeature({ db, config }: FeatureContext): Feature<TrackerService> {
  const tracker = new TrackerService(db.knex, db.changes);
  return {
    name: 'tracker',
    services: tracker,
    importParts: [trackerCatalogImport, trackerFieldsImport],
    http: () => ({
      apis: [
        {
          path: HOST_API,
          aliases: HOST_API_ALIASES,
          render: renderHostJson,
          routers: [buildRouter(trackerEndpoints, { tracker, baseUrl: config.baseUrl }, { mountedAt: HOST_API })],
        },
      ],
    }),
  };
}
