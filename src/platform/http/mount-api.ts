import express, { Router, type IRouter, type RequestHandler } from 'express';
import type { AppError } from './app-error.ts';
import { createErrorHandler, createNotFoundHandler, type ErrorRenderer } from './error-handler.ts';
import { checkRequestBody, checkRequestUrl, verifyUtf8 } from './input-boundary.ts';

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
  /**
   * For an API that documents another answer to bad input than 400 (the code-block API answers 500
   * INVALID_URL_PARAMETER): turns the boundary's 400s into that error.
   */
  badInput?: (err: AppError) => AppError;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const isBodyless = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * One API: authentication first (a wrong credential is refused before the body is even read), then the
 * input boundary (path and query that decode and can be stored, a JSON body that was what its headers said
 * and holds only storable text), the feature routers, a 404 and the error handler, all in the API's own
 * error format.
 */
export function mountApi(root: IRouter, authenticate: RequestHandler, api: ApiMount): void {
  const r = Router();
  for (const h of api.before ?? []) r.use(h);
  r.use(authenticate);
  const json = express.json({ limit: api.bodyLimit ?? DEFAULT_BODY_LIMIT, strict: false, verify: verifyUtf8 });
  // One router layer for the whole boundary (every layer costs each request of the hot paths). GET and HEAD
  // carry no body worth reading: the parser is skipped on the busiest requests.
  r.use((req, res, next) =>
    checkRequestUrl(req, res, (urlErr?: unknown) => {
      if (urlErr || isBodyless(req.method)) return next(urlErr);
      json(req, res, (err?: unknown) => (err ? next(err) : checkRequestBody(req, res, next)));
    }),
  );
  for (const router of api.routers) r.use(router);
  r.use(createNotFoundHandler());
  r.use(createErrorHandler(api.render, api.badInput));
  root.use(api.path, r);
}
