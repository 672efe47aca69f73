// The API descriptions at their public paths and the explorer that shows them (wired here so app.ts gains
// one line). The field editor's description is its own route M4 (administrators only), under each base.
import type { IRouter } from 'express';
import type { Config } from '../config.ts';
import { lazyDocument } from '../platform/openapi/document.ts';
import { codeblocksApi } from '../codeblocks/codeblocks.api.ts';
import { generationOf } from '../codeblocks/generation.ts';
import { hostApi } from './host.api.ts';
import { DOCUMENTS_BASE, DOCUMENT_PATHS, EXPLORER_PATH } from './apidocs.paths.ts';
import { documentEndpoints } from './operations.endpoints.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { createExplorerRouter } from './explorer.routes.ts';
import { FIELDEDITOR_BASES } from '../fieldeditor/fieldeditor.module.ts';
import { API_SPECIFICATION_PATH } from '../fieldeditor/description/description.paths.ts';

/** Where the explorer finds the field editor's description (M4 under its first base path). */
export const FIELDEDITOR_DOCUMENT_PATH = `${FIELDEDITOR_BASES[0]!.path}${API_SPECIFICATION_PATH}`;


export function mountApiDocs(root: IRouter, config: Config): void {
  const { contextPath } = config;
  const documents = {
    host: lazyDocument(() => hostApi, contextPath),
    codeblocks: lazyDocument(() => codeblocksApi(generationOf(config.codeblocksCompat)), contextPath),
  };
  // Strict: `/openapi/host.json/` is not the document.
  root.use(DOCUMENTS_BASE, buildRouter(documentEndpoints, { documents }, { mountedAt: DOCUMENTS_BASE, router: { strict: true } }));
  root.use(
    EXPLORER_PATH,
    createExplorerRouter([
      { name: 'Host: directory, tokens, wiki, tracker', url: `${contextPath}${DOCUMENT_PATHS.host}` },
      { name: 'Code-block downloads', url: `${contextPath}${DOCUMENT_PATHS.codeblocks}` },
      { name: 'Field editor (administrators: Authorize first)', url: `${contextPath}${FIELDEDITOR_DOCUMENT_PATH}` },
    ]),
  );
}
