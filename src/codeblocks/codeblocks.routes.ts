// E1 (and the JSON list's /code link target), E2 and E3 under /rest/advancedcodeblocks/1.
// HTTP shapes only: parse the query, ask the service, write the body with the documented content type.
import { Router, type Request, type Response } from 'express';
import { CachedBody, sendCachedBody } from '../platform/http/cached-body.ts';
import { currentUser, requireUser } from '../platform/auth/guards.ts';
import type { BlockTextCache, CodeblocksService } from './download.service.ts';
import { parseDownloadUrl, parseListQuery } from './download.schemas.ts';
import { CONTENT_TYPES } from './error-render.ts';
import { PATHS, type Generation } from './generation.ts';
import { toDownloadList } from './list-links.ts';
import { renderJsonList, renderXmlList } from './list-render.ts';

export interface CodeblocksRouterDeps {
  codeblocks: CodeblocksService;
  generation: Generation;
  baseUrl: string;
  /** Rendered list bodies by user, box and format (see download-cache.ts); optional in tests. */
  listBodies?: BlockTextCache;
}

/** A body with its ETag (304 on a match, after the view check passed) and compressed forms over 1 KB. */
function send(req: Request, res: Response, type: keyof typeof CONTENT_TYPES, body: CachedBody): void {
  sendCachedBody(req, res, body, CONTENT_TYPES[type]);
}

export function createCodeblocksRouter({ codeblocks, generation, baseUrl, listBodies }: CodeblocksRouterDeps): Router {
  const router = Router();

  // A list body depends only on the box, the content record and the links; it is kept per user (whose view
  // check passed) until a wiki or directory change.
  const listBody = async (req: Request, format: 'xml' | 'json'): Promise<CachedBody> => {
    const user = currentUser(req);
    const params = parseListQuery(req.query);
    const key = `${user.id}\u0000${params.contentId}\u0000${params.macroId}\u0000${format}`;
    const known = listBodies?.get(key);
    if (known !== undefined) return known;
    const since = listBodies?.stamp();
    const links = toDownloadList(generation, await codeblocks.list(user, params), baseUrl, format);
    const body = new CachedBody(format === 'xml' ? renderXmlList(links) : renderJsonList(links));
    return listBodies ? listBodies.set(key, body, since) : body;
  };

  // Not async: a block answered from memory (a fleet at boot) is sent without a promise or a microtask.
  const download = (req: Request, res: Response) => {
    const user = currentUser(req);
    const params = parseDownloadUrl(req.url, () => req.query);
    const known = codeblocks.cachedDownload(user, params);
    if (known !== undefined) return send(req, res, 'text', known);
    return codeblocks.download(user, params).then((body) => send(req, res, 'text', body));
  };
  router.get(PATHS.downloadCode, requireUser, download);
  router.get(PATHS.code, requireUser, download);

  router.get(PATHS.listXml, requireUser, async (req, res) => send(req, res, 'xml', await listBody(req, 'xml')));
  router.get(PATHS.listJson, requireUser, async (req, res) => send(req, res, 'json', await listBody(req, 'json')));
  return router;
}
