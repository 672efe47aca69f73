// The API descriptions at their public paths and the explorer that shows them (wired here so app.ts gains
// one line). The field editor's description is its own route M4 (administrators only), under each base.
import { Router, type IRouter } from 'express';
import type { Config } from '../config.ts';
import { lazyDocument } from '../platform/openapi/document.ts';
import { codeblocksApi } from '../codeblocks/codeblocks.api.ts';
import { generationOf } from '../codeblocks/generation.ts';
import { hostApi } from './host.api.ts';
import { DOCUMENTS_BASE, DOCUMENT_PATHS, EXPLORER_PATH } from './apidocs.paths.ts';
import { createExplorerRouter } from './explorer.routes.ts';
import { FIELDEDITOR_BASES } from '../fieldeditor/fieldeditor.module.ts';
import { API_SPECIFICATION_PATH } from '../fieldeditor/description/description.paths.ts';

/** Where the explorer finds the field editor's description (M4 under its first base path). */
export const FIELDEDITOR_DOCUMENT_PATH = `${FIELDEDITOR_BASES[0]!.path}${API_SPECIFICATION_PATH}`;


export function mountApiDocs(root: IRouter, config: Config): void {
  const { contextPath } = config;
  const documents = {
    [DOCUMENT_PATHS.host]: lazyDocument(() => hostApi, contextPath),
    [DOCUMENT_PATHS.codeblocks]: lazyDocument(() => codeblocksApi(generationOf(config.codeblocksCompat)), contextPath),
  };
  const r = Router({ strict: true });
  for (const [path, document] of Object.entries(documents)) {
    r.get(path.slice(DOCUMENTS_BASE.length), (_req, res) => {
      res.type('application/json; charset=utf-8').send(document());
    });
  }
  root.use(DOCUMENTS_BASE, r);
  root.use(
    EXPLORER_PATH,
    createExplorerRouter([
      { name: 'Host: directory, tokens, wiki, tracker', url: `${contextPath}${DOCUMENT_PATHS.host}` },
      { name: 'Code-block downloads', url: `${contextPath}${DOCUMENT_PATHS.codeblocks}` },
      { name: 'Field editor (administrators: Authorize first)', url: `${contextPath}${FIELDEDITOR_DOCUMENT_PATH}` },
    ]),
  );
}
