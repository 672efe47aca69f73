import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { Router, type Express, type IRouter } from 'express';
import type { AppServices } from './services.ts';
import { requestTrackingStep, useRequestLog } from './platform/log/request-logger.ts';
import { RequestPipeline, type PipelineSteps } from './platform/http/pipeline.ts';
import { inputBoundaryStep } from './platform/http/input-boundary.ts';
import { trustedProxyStep } from './platform/http/client-address.ts';
import type { FastPath, FastPathClaim } from './platform/http/fast-path.ts';
import { mountApi } from './platform/http/mount-api.ts';
import { createErrorHandler, createNotFoundHandler } from './platform/http/error-handler.ts';
import { renderHostJson } from './platform/http/renderers.ts';
import { statusRouter } from './apidocs/operations.endpoints.ts';
import { pingDatabase } from './platform/db/probes.ts';
import { METRICS_PATH, metricsHandler } from './platform/metrics/metrics.routes.ts';
import { mountApiDocs } from './apidocs/apidocs.module.ts';
import { lazyDocument } from './platform/openapi/document.ts';
import { fieldeditorApi } from './fieldeditor/description/fieldeditor.api.ts';
import { useStrictFreshness } from './platform/http/freshness.ts';
import { directoryEndpoints } from './directory/directory.endpoints.ts';
import { tokenEndpoints } from './directory/tokens.endpoints.ts';
import { mountCodeblocks } from './codeblocks/codeblocks.module.ts';
import { DownloadFastPath } from './codeblocks/download-fast-path.ts';
import { OptionListFastPath } from './fieldeditor/options/option-list-fast-path.ts';
import { createWikiRouters, WIKI_BODY_LIMIT } from './wiki/wiki.module.ts';
import { renderWikiJson } from './wiki/wiki-json.renderer.ts';
import { leaveVersionedPaths } from './wiki/versioned-paths.ts';
import { trackerEndpoints } from './tracker/tracker.endpoints.ts';
import { buildRouter } from './platform/http/endpoint.ts';
import { renderFieldEditor } from './fieldeditor/fieldeditor.errors.ts';
import { createFieldeditorPublicRouters, createFieldeditorRouters, FIELDEDITOR_BASES } from './fieldeditor/fieldeditor.module.ts';
import { mountWeb } from './web/web.module.ts';
import { mountFieldeditorCompat } from './fieldeditor/compat-1.1/compat.module.ts';

/** The Express application, with the request pipeline its mounts run (and the listener runs before a fast path). */
export type App = Express & { pipeline: RequestPipeline };

export interface AppOptions {
  /** Changes the pipeline's steps (tests add a step and prove every road runs it). */
  steps?: (defaults: PipelineSteps) => PipelineSteps;
}

/**
 * The request pipeline (platform/http/pipeline.ts): request id, request line and metrics for every request;
 * for every request to an API the client address behind trusted proxies (only with TRUST_PROXY),
 * authentication, the rate limits (unless RATE_LIMITS=off) and the input boundary. The limits come before the
 * input boundary, so a refused request's body is never read.
 */
function pipelineSteps(services: AppServices): PipelineSteps {
  const { metrics, trustedProxies, rateLimiter } = services;
  return {
    everyRequest: [requestTrackingStep(services.log, metrics && ((req, res, seconds) => metrics.requestFinished(req, res, seconds)))],
    apiRequest: [
      ...(trustedProxies ? [trustedProxyStep(trustedProxies)] : []),
      services.authentication,
      ...(rateLimiter ? [rateLimiter.step] : []),
      inputBoundaryStep,
    ],
  };
}

/**
 * The Express application: the pipeline's steps for every request, then one mount per API, each with its own
 * error format. Everything is served under the context path of BASE_URL.
 */
export function createApp(services: AppServices, options: AppOptions = {}): App {
  const defaults = pipelineSteps(services);
  const pipeline = new RequestPipeline(options.steps ? options.steps(defaults) : defaults, services.config.contextPath);
  const app = Object.assign(express(), { pipeline });
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  useStrictFreshness(app);
  useRequestLog(app, services.log);
  app.use(pipeline.everyRequestMiddleware());
  const { metrics } = services;

  // Under a context path everything hangs off one router; without one, off the app itself (one router
  // level less on every request).
  const root: IRouter = services.config.contextPath ? Router() : app;
  const { baseUrl } = services.config;
  root.use('/status', statusRouter(() => pingDatabase(services.db.knex)));
  // Prometheus metrics on this port only with their bearer token (otherwise on METRICS_PORT, or off).
  const metricsToken = services.config.metrics?.port === 0 ? services.config.metrics.token : undefined;
  if (metrics && metricsToken) root.get(METRICS_PATH, metricsHandler(metrics, metricsToken));
  // OpenAPI descriptions of the host and code-block APIs and the explorer (for anyone, like /status).
  mountApiDocs(root, services.config);

  // Tracker host and directory (Jira-style JSON errors).
  mountApi(root, pipeline, {
    path: '/rest/api/2',
    // Clients of the tracker host also call its API as `latest` (issue 26).
    aliases: ['/rest/api/latest'],
    render: renderHostJson,
    routers: [
      buildRouter(directoryEndpoints, { directory: services.directory, baseUrl }, { mountedAt: '/rest/api/2' }),
      buildRouter(trackerEndpoints, { tracker: services.tracker, baseUrl }, { mountedAt: '/rest/api/2' }),
    ],
  });
  mountApi(root, pipeline, {
    path: '/rest/pat',
    render: renderHostJson,
    // Everything below /latest is for signed-in users, also a path no endpoint has.
    routers: [buildRouter(tokenEndpoints, { tokens: services.tokens }, { mountedAt: '/rest/pat', closedPrefixes: ['/latest'] })],
  });
  // Wiki host (Confluence-style JSON errors). After /rest/api/2, which therefore never falls through to it.
  mountApi(root, pipeline, {
    path: '/rest/api',
    render: renderWikiJson,
    routers: createWikiRouters(services.wiki, baseUrl),
    bodyLimit: WIKI_BODY_LIMIT,
    // A versioned path (`/rest/api/3/…`) is the tracker's: its 404 is the tracker's too (issue 26).
    before: [leaveVersionedPaths],
  });

  // Field editor (statusCode/subCode/message errors) under its own name and the original's, both versions.
  const { contextPath } = services.config;
  const fieldeditorDocument = lazyDocument(() => fieldeditorApi(FIELDEDITOR_BASES.map((b) => b.path)), contextPath);
  for (const { path, version } of FIELDEDITOR_BASES) {
    mountApi(root, pipeline, {
      path,
      render: renderFieldEditor,
      before: createFieldeditorPublicRouters(services.db),
      routers: createFieldeditorRouters(services.fieldeditor, version, { document: fieldeditorDocument, basePath: contextPath + path }),
    });
  }

  // The field editor's API 1.1 (compatibility routes) under its own two base paths (issue 26).
  mountFieldeditorCompat(root, pipeline, services.fieldeditor);

  // Code-block download API (errors per CODEBLOCKS_COMPAT generation) and its servlet redirects.
  mountCodeblocks(root, pipeline, { config: services.config, codeblocks: services.codeblocks, changes: services.db.changes });

  // The web interface: sign-in sessions, and its page at the root of the context path.
  mountWeb(root, pipeline, { config: services.config, sessions: services.sessions, log: services.log });

  if (root !== app) app.use(services.config.contextPath, root);
  app.use(createNotFoundHandler(), createErrorHandler(renderHostJson));
  metrics?.indexRoutes(app, services.config.contextPath);
  return app;
}

/** The HTTP server's request listener: the app, behind the fast paths unless FAST_PATH=0. */
export type AppListener = RequestListener & {
  /** The download fast path when the fast paths are on (its `answered` count is what tests look at). */
  fastPath?: DownloadFastPath;
  /** The option-list fast path when the fast paths are on. */
  optionListFastPath?: OptionListFastPath;
};

/**
 * The listener for `http.createServer`. With the fast paths on, it runs the pipeline's steps for every request
 * itself and, for a request a fast path claims (code-block downloads: src/codeblocks/download-fast-path.ts;
 * option lists: src/fieldeditor/options/option-list-fast-path.ts), the API's steps too, then lets the fast path
 * answer from its caches; whatever it does not answer goes to `app`, whose mounts find the steps done (and
 * raise the error one gave, in the API's format). `fastPath` overrides the configuration (tests compare both on
 * one set of services).
 */
export function createRequestListener(services: AppServices, app: App = createApp(services), fastPath = services.config.fastPath): AppListener {
  if (!fastPath) return app;
  const { pipeline } = app;
  const { contextPath } = services.config;
  const downloads = new DownloadFastPath({ contextPath, codeblocks: services.codeblocks });
  const optionLists = new OptionListFastPath({
    contextPath,
    bases: FIELDEDITOR_BASES.map((b) => b.path),
    access: services.fieldeditor.access,
    options: services.fieldeditor.options,
  });

  function viaFastPath<C extends FastPathClaim>(req: IncomingMessage, res: ServerResponse, fast: FastPath<C>, claim: C): void {
    const api = pipeline.apiOf(req.url ?? '');
    if (api === undefined) return void app(req, res);
    pipeline.runApi(req, res, api, (err) => {
      if (err === undefined && fast.answer(req, res, claim)) return;
      app(req, res);
    });
  }

  const listener: AppListener = (req, res) => {
    pipeline.runEveryRequest(req, res, (err) => {
      if (err === undefined) {
        const download = downloads.claim(req);
        if (download) return viaFastPath(req, res, downloads, download);
        const list = optionLists.claim(req);
        if (list) return viaFastPath(req, res, optionLists, list);
      }
      app(req, res);
    });
  };
  listener.fastPath = downloads;
  listener.optionListFastPath = optionLists;
  return listener;
}
