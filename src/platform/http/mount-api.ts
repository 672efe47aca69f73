import { Router, type IRouter, type RequestHandler } from 'express';
import type { AppError } from './app-error.ts';
import { createErrorHandler, createNotFoundHandler, type ErrorRenderer } from './error-handler.ts';
import type { RequestPipeline } from './pipeline.ts';
import type { UploadRule } from './upload.ts';
import type { FormRule } from './form-body.ts';

export interface ApiMount {
  /** Path under the context path, e.g. `/rest/api/2`. */
  path: string;
  /** More paths that answer exactly the same (`/rest/api/latest` for `/rest/api/2`). */
  aliases?: string[];
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
  /**
   * `refuse` (default): a state-changing request with a body that is not JSON answers 403 (a form type without
   * `X-Atlassian-Token: no-check`) or 415 (body-type.ts). `ignore`: for an API that takes no bodies at all.
   */
  nonJsonBodies?: 'refuse' | 'ignore';
  /** `downloads`: the rate limits count every request of this API as a download (the code-block API). */
  family?: 'downloads';
  /** Paths where a body of the named types is a file the route reads itself (upload.ts). */
  uploads?: UploadRule[];
  /** Operations that take a form body from a script (Basic or Bearer, no cookie): form-body.ts's `formRules`. */
  forms?: FormRule[];
  /** Paths under `path` where a POST verifies a password (the sign-in): the rate limits count them as logins. */
  loginPaths?: string[];
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * One API: the request pipeline's API steps first (authentication, the input boundary: see pipeline.ts; one
 * router layer for them all, since every layer costs each request of the hot paths), then the feature routers,
 * a 404 and the error handler, all in the API's own error format. A fast path that ran the steps already
 * left their outcome on the request, and the steps' layer raises it here.
 */
export function mountApi(root: IRouter, pipeline: RequestPipeline, api: ApiMount): void {
  const paths = api.aliases ? [api.path, ...api.aliases] : [api.path];
  const info = pipeline.addApi(
    paths,
    { bodyLimit: api.bodyLimit ?? DEFAULT_BODY_LIMIT, refuseNonJsonBodies: api.nonJsonBodies !== 'ignore', family: api.family, uploads: api.uploads, forms: api.forms },
    api.loginPaths,
  );
  const r = Router();
  for (const h of api.before ?? []) r.use(h);
  r.use(pipeline.apiMiddleware(info));
  for (const router of api.routers) r.use(router);
  r.use(createNotFoundHandler());
  r.use(createErrorHandler(api.render, api.badInput));
  root.use(paths.length === 1 ? api.path : paths, r);
}
