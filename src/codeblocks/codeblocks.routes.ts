// E1 (and the JSON list's /code link target), E2 and E3 under /rest/advancedcodeblocks/1.
// HTTP shapes only: parse the query, ask the service, write the body with the documented content type.
import { Router, type Request, type Response } from 'express';
import { currentUser, requireUser } from '../platform/auth/guards.ts';
import type { CodeblocksService } from './download.service.ts';
import { parseDownloadQuery, parseListQuery } from './download.schemas.ts';
import { CONTENT_TYPES } from './error-render.ts';
import { PATHS, type Generation } from './generation.ts';
import { toDownloadList } from './list-links.ts';
import { renderJsonList, renderXmlList } from './list-render.ts';

export interface CodeblocksRouterDeps {
  codeblocks: CodeblocksService;
  generation: Generation;
  baseUrl: string;
}

function send(res: Response, type: keyof typeof CONTENT_TYPES, body: string): void {
  res.status(200);
  res.setHeader('Content-Type', CONTENT_TYPES[type]);
  res.send(body); // sets Content-Length, also for HEAD
}

export function createCodeblocksRouter({ codeblocks, generation, baseUrl }: CodeblocksRouterDeps): Router {
  const router = Router();

  const download = async (req: Request, res: Response) => {
    const user = currentUser(req);
    const params = parseDownloadQuery(req.query);
    send(res, 'text', await codeblocks.download(user, params));
  };
  router.get(PATHS.downloadCode, requireUser, download);
  router.get(PATHS.code, requireUser, download);

  router.get(PATHS.listXml, requireUser, async (req, res) => {
    const listing = await codeblocks.list(currentUser(req), parseListQuery(req.query));
    send(res, 'xml', renderXmlList(toDownloadList(generation, listing, baseUrl, 'xml')));
  });
  router.get(PATHS.listJson, requireUser, async (req, res) => {
    const listing = await codeblocks.list(currentUser(req), parseListQuery(req.query));
    send(res, 'json', renderJsonList(toDownloadList(generation, listing, baseUrl, 'json')));
  });
  return router;
}
