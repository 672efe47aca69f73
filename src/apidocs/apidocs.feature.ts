// The host's operational endpoints as a feature (platform/feature.ts): the health check for load balancers,
// the API descriptions at their public paths and the explorer that shows them, all for anyone. The field
// editor's description is its own route M4 (administrators only), under each of its base paths.
import type { Feature, FeatureContext } from '../platform/feature.ts';
import { lazyDocument } from '../platform/openapi/document.ts';
import { pingDatabase } from '../platform/db/probes.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { codeblocksApi } from '../codeblocks/codeblocks.api.ts';
import { generationOf } from '../codeblocks/generation.ts';
import { FIELDEDITOR_BASES } from '../fieldeditor/shared/fieldeditor.paths.ts';
import { API_SPECIFICATION_PATH } from '../fieldeditor/description/description.paths.ts';
import { hostApi } from './host.api.ts';
import { DOCUMENTS_BASE, DOCUMENT_PATHS, EXPLORER_PATH } from './apidocs.paths.ts';
import { documentEndpoints, statusEndpoints } from './operations.endpoints.ts';
import { createExplorerRouter } from './explorer.routes.ts';

/** Where the explorer finds the field editor's description (M4 under its first base path). */
export const FIELDEDITOR_DOCUMENT_PATH = `${FIELDEDITOR_BASES[0]!.path}${API_SPECIFICATION_PATH}`;

export function createApidocsFeature({ config, db }: FeatureContext): Feature<undefined> {
  const { contextPath } = config;
  return {
    name: 'apidocs',
    services: undefined,
    http() {
      const documents = {
        host: lazyDocument(() => hostApi, contextPath),
        codeblocks: lazyDocument(() => codeblocksApi(generationOf(config.codeblocksCompat)), contextPath),
      };
      const explorer = createExplorerRouter([
        { name: 'Host: directory, tokens, wiki, tracker', url: `${contextPath}${DOCUMENT_PATHS.host}` },
        { name: 'Code-block downloads', url: `${contextPath}${DOCUMENT_PATHS.codeblocks}` },
        { name: 'Field editor (administrators: Authorize first)', url: `${contextPath}${FIELDEDITOR_DOCUMENT_PATH}` },
      ]);
      return {
        open: [
          // Under its own prefix, so no other request enters it.
          { path: '/status', router: buildRouter(statusEndpoints, { ping: () => pingDatabase(db.knex) }, { mountedAt: '/status' }) },
          // Strict: `/openapi/host.json/` is not the document.
          { path: DOCUMENTS_BASE, router: buildRouter(documentEndpoints, { documents }, { mountedAt: DOCUMENTS_BASE, router: { strict: true } }) },
          { path: EXPLORER_PATH, router: explorer },
        ],
      };
    },
  };
}
