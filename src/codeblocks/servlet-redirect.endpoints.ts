// The oldest generation's servlet paths answer 301 to the matching REST path in every generation, for
// anyone (mounted before authentication: the REST endpoint authenticates the redirected request).
import type { Request, Response } from 'express';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { PATHS, REST_BASE, type Generation } from './generation.ts';
import { redirect, servletQuery, SERVLETS } from './codeblocks.openapi-schemas.ts';
import { rewriteServletQuery } from './servlet-query.ts';

export interface ServletDeps {
  generation: Generation;
  baseUrl: string;
}

const moved = (target: string) => (req: Request, res: Response, { generation, baseUrl }: ServletDeps) => {
  const q = req.originalUrl.indexOf('?');
  const query = q < 0 ? '' : rewriteServletQuery(req.originalUrl.slice(q + 1), generation);
  res.status(301);
  res.setHeader('Location', `${baseUrl}${REST_BASE}${target}${query === '' ? '' : `?${query}`}`);
  res.end();
};

export const servletEndpoints: Endpoint<ServletDeps>[] = [
  {
    method: 'get', path: PATHS.servletCode, tag: SERVLETS, access: 'anyone', summary: 'Old download servlet: 301 to E1 (for anyone; E1 then authenticates)',
    query: servletQuery, responses: { 301: redirect('E1') }, handle: moved(PATHS.downloadCode),
  },
  {
    method: 'get', path: PATHS.servletList, tag: SERVLETS, access: 'anyone', summary: 'Old list servlet: 301 to E2', query: servletQuery,
    responses: { 301: redirect('E2') }, handle: moved(PATHS.listXml),
  },
];
