import express, { Router, type IRouter, type RequestHandler } from 'express';
import { createErrorHandler, createNotFoundHandler, type ErrorRenderer } from './error-handler.ts';

export interface ApiMount {
  /** Path under the context path, e.g. `/rest/api/2`. */
  path: string;
  /** Renders every error of this API, including 401s, 404s for unknown routes and bad JSON. */
  render: ErrorRenderer;
  /** Feature routers answering under `path`, tried in order. */
  routers: Router[];
  /** Largest JSON body accepted (bytes); larger answers 413. */
  bodyLimit?: number;
  /** Runs before authentication (e.g. redirects that must work for anyone). */
  before?: RequestHandler[];
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * One API: authentication first (a wrong credential is refused before the body is even read), then the
 * JSON body, the feature routers, a 404 and the error handler, all in the API's own error format.
 */
export function mountApi(root: IRouter, authenticate: RequestHandler, api: ApiMount): void {
  const r = Router();
  for (const h of api.before ?? []) r.use(h);
  r.use(authenticate);
  const json = express.json({ limit: api.bodyLimit ?? DEFAULT_BODY_LIMIT, strict: false });
  // GET and HEAD carry no body worth reading: skip the parser on the busiest requests.
  r.use((req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : json(req, res, next)));
  for (const router of api.routers) r.use(router);
  r.use(createNotFoundHandler());
  r.use(createErrorHandler(api.render));
  root.use(api.path, r);
}
