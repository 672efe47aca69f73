// E1 (and the JSON list's /code link target), E2 and E3 under /rest/advancedcodeblocks/1, each declared once
// (docs/openapi.md). HTTP shapes only: parse the query, ask the service, write the body with the documented
// content type.
import type { Request, Response } from 'express';
import { CachedBody, sendCachedBody } from '../platform/http/cached-body.ts';
import { sendStreamedBody, type StreamedBody } from '../platform/http/streamed-body.ts';
import { currentUser } from '../platform/auth/guards.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import type { BlockTextCache, CodeblocksService } from './download.service.ts';
import { downloadQuery, listQuery, parseDownloadUrl, parseListQuery } from './download.schemas.ts';
import { CONTENT_TYPES } from './error-render.ts';
import { PATHS, REST_BASE, type Generation } from './generation.ts';
import { toDownloadList } from './list-links.ts';
import { renderJsonList, renderXmlList } from './list-render.ts';
import { downloadDescription, errors, jsonList, MEDIA, TAG, text, xmlList } from './codeblocks.openapi-schemas.ts';

export interface CodeblocksDeps {
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

/** A block: held (small, cached) or streamed (large: rendered as the client takes it, docs/security.md). */
function sendBlock(req: Request, res: Response, body: CachedBody | StreamedBody): void {
  if (body instanceof CachedBody) send(req, res, 'text', body);
  else sendStreamedBody(req, res, body, CONTENT_TYPES.text);
}

// A list body depends only on the box, the content record and the links; it is kept per user (whose view
// check passed) until a wiki or directory change.
async function listBody(req: Request, format: 'xml' | 'json', { codeblocks, generation, baseUrl, listBodies }: CodeblocksDeps): Promise<CachedBody> {
  const user = currentUser(req);
  const params = parseListQuery(req.query);
  const key = `${user.id}\u0000${params.contentId}\u0000${params.macroId}\u0000${format}`;
  const known = listBodies?.get(key);
  if (known !== undefined) return known;
  const since = listBodies?.stamp();
  const links = toDownloadList(generation, await codeblocks.list(user, params), baseUrl, format);
  const body = new CachedBody(format === 'xml' ? renderXmlList(links) : renderJsonList(links));
  return listBodies ? listBodies.set(key, body, since) : body;
}

// Not async: a block answered from memory (a fleet at boot) is sent without a promise or a microtask.
function download(req: Request, res: Response, { codeblocks }: CodeblocksDeps) {
  const user = currentUser(req);
  const params = parseDownloadUrl(req.url, () => req.query);
  const known = codeblocks.cachedDownload(user, params);
  if (known !== undefined) return send(req, res, 'text', known);
  return codeblocks.download(user, params).then((body) => sendBlock(req, res, body));
}

const e1 = (path: string, summary: string): Endpoint<CodeblocksDeps> => ({
  method: 'get',
  path: `${REST_BASE}${path}`,
  tag: TAG,
  access: 'user',
  summary,
  description: downloadDescription,
  query: downloadQuery,
  responses: { 200: { description: "The block's text, byte for byte", content: { [MEDIA.text]: text('The rendered block') } }, ...errors('text') },
  handle: download,
});

export const codeblocksEndpoints: Endpoint<CodeblocksDeps>[] = [
  e1(PATHS.downloadCode, 'E1: one code block as plain text'),
  e1(PATHS.code, 'One code block as plain text (target of the JSON list\'s links; the same as E1)'),
  {
    method: 'get', path: `${REST_BASE}${PATHS.listXml}`, tag: TAG, access: 'user', summary: "E2: a code box's download links as XML", query: listQuery,
    responses: { 200: { description: 'The list, blocks in document order, the raw template last', content: { [MEDIA.xml]: xmlList } }, ...errors('xml') },
    handle: async (req, res, deps) => send(req, res, 'xml', await listBody(req, 'xml', deps)),
  },
  {
    method: 'get', path: `${REST_BASE}${PATHS.listJson}`, tag: TAG, access: 'user', summary: "E3: a code box's download links as JSON", query: listQuery,
    responses: { 200: { description: 'The list, blocks in document order, the raw template last', content: { [MEDIA.json]: jsonList } }, ...errors('json') },
    handle: async (req, res, deps) => send(req, res, 'json', await listBody(req, 'json', deps)),
  },
];
