import type { RequestListener } from 'node:http';
import express, { Router, type Express, type IRouter } from 'express';
import type { AppServices } from './services.ts';
import { useRequestLogging } from './platform/log/request-logger.ts';
import { mountApi } from './platform/http/mount-api.ts';
import { createErrorHandler, createNotFoundHandler } from './platform/http/error-handler.ts';
import { renderHostJson } from './platform/http/renderers.ts';
import { statusHandler } from './platform/http/status.routes.ts';
import { METRICS_PATH, metricsHandler } from './platform/metrics/metrics.routes.ts';
import { mountApiDocs } from './apidocs/apidocs.module.ts';
import { lazyDocument } from './platform/openapi/document.ts';
import { fieldeditorApi } from './fieldeditor/description/fieldeditor.api.ts';
import { createDescriptionRouter } from './fieldeditor/description/description.routes.ts';
import { useStrictFreshness } from './platform/http/freshness.ts';
import { createDirectoryRouter } from './directory/directory.routes.ts';
import { createTokensRouter } from './directory/tokens.routes.ts';
import { mountCodeblocks } from './codeblocks/codeblocks.module.ts';
import { DownloadFastPath } from './codeblocks/download-fast-path.ts';
import { OptionListFastPath } from './fieldeditor/options/option-list-fast-path.ts';
import { createWikiRouters, WIKI_BODY_LIMIT } from './wiki/wiki.module.ts';
import { renderWikiJson } from './wiki/wiki-json.renderer.ts';
import { trackerEndpoints } from './tracker/tracker.endpoints.ts';
import { buildRouter } from './platform/http/endpoint.ts';
import { renderFieldEditor } from './fieldeditor/fieldeditor.errors.ts';
import { createFieldeditorPublicRouters, createFieldeditorRouters, FIELDEDITOR_BASES } from './fieldeditor/fieldeditor.module.ts';
import { mountWeb } from './web/web.module.ts';

/**
 * The Express application: shared middleware, then one mount per API, each with its own error format.
 * Everything is served under the context path of BASE_URL.
 */
export function createApp(services: AppServices): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  useStrictFreshness(app);
  const { metrics } = services;
  useRequestLogging(app, services.log, metrics && ((req, res, seconds) => metrics.requestFinished(req, res, seconds)));

  // Under a context path everything hangs off one router; without one, off the app itself (one router
  // level less on every request).
  const root: IRouter = services.config.contextPath ? Router() : app;
  const { baseUrl } = services.config;
  root.get('/status', statusHandler(() => services.db.knex.raw('select 1')));
  // Prometheus metrics on this port only with their bearer token (otherwise on METRICS_PORT, or off).
  const metricsToken = services.config.metrics?.port === 0 ? services.config.metrics.token : undefined;
  if (metrics && metricsToken) root.get(METRICS_PATH, metricsHandler(metrics, metricsToken));
  // OpenAPI descriptions of the host and code-block APIs and the explorer (for anyone, like /status).
  mountApiDocs(root, services.config);

  // Tracker host and directory (Jira-style JSON errors).
  mountApi(root, services.authenticate, {
    path: '/rest/api/2',
    render: renderHostJson,
    routers: [createDirectoryRouter({ directory: services.directory, baseUrl }), buildRouter(trackerEndpoints, { tracker: services.tracker, baseUrl }, { mountedAt: '/rest/api/2' })],
  });
  mountApi(root, services.authenticate, {
    path: '/rest/pat',
    render: renderHostJson,
    routers: [Router().use('/latest', createTokensRouter({ tokens: services.tokens }))],
  });
  // Wiki host (Confluence-style JSON errors). After /rest/api/2, which therefore never falls through to it.
  mountApi(root, services.authenticate, {
    path: '/rest/api',
    render: renderWikiJson,
    routers: createWikiRouters(services.wiki, baseUrl),
    bodyLimit: WIKI_BODY_LIMIT,
  });

  // Field editor (statusCode/subCode/message errors) under its own name and the original's, both versions.
  const { contextPath } = services.config;
  const fieldeditorDocument = lazyDocument(() => fieldeditorApi(FIELDEDITOR_BASES.map((b) => b.path)), contextPath);
  for (const { path, version } of FIELDEDITOR_BASES) {
    mountApi(root, services.authenticate, {
      path,
      render: renderFieldEditor,
      before: createFieldeditorPublicRouters(services.db),
      routers: [...createFieldeditorRouters(services.fieldeditor, version), createDescriptionRouter({ document: fieldeditorDocument, basePath: contextPath + path })],
    });
  }

  // Code-block download API (errors per CODEBLOCKS_COMPAT generation) and its servlet redirects.
  mountCodeblocks(root, services.authenticate, { config: services.config, codeblocks: services.codeblocks, changes: services.db.changes });

  // The web interface: sign-in sessions, and its page at the root of the context path.
  mountWeb(root, services.authenticate, { config: services.config, sessions: services.sessions, log: services.log });

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
 * The listener for `http.createServer`: cache hits of code-block downloads (src/codeblocks/download-fast-path.ts)
 * and of option lists (src/fieldeditor/options/option-list-fast-path.ts) are answered before Express, with the
 * same answer, log line and metrics; everything else by `app`. `fastPath` overrides the configuration (tests
 * compare both on one set of services).
 */
export function createRequestListener(services: AppServices, app: Express = createApp(services), fastPath = services.config.fastPath): AppListener {
  if (!fastPath) return app;
  const deps = { contextPath: services.config.contextPath, authenticator: services.authenticator, log: services.log, metrics: services.metrics };
  const downloads = new DownloadFastPath({ ...deps, codeblocks: services.codeblocks });
  const optionLists = new OptionListFastPath({
    ...deps,
    bases: FIELDEDITOR_BASES.map((b) => b.path),
    access: services.fieldeditor.access,
    options: services.fieldeditor.options,
  });
  const listener: AppListener = (req, res) => {
    if (!downloads.tryAnswer(req, res) && !optionLists.tryAnswer(req, res)) app(req, res);
  };
  listener.fastPath = downloads;
  listener.optionListFastPath = optionLists;
  return listener;
}
