import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { Router, type Express, type IRouter } from 'express';
import type { AppServices } from './services.ts';
import { requestTrackingStep, useRequestLog } from './platform/log/request-logger.ts';
import { RequestPipeline, type PipelineSteps } from './platform/http/pipeline.ts';
import { inputBoundaryStep } from './platform/http/input-boundary.ts';
import { trustedProxyStep } from './platform/http/client-address.ts';
import type { FastPath, FastPathClaim } from './platform/http/fast-path.ts';
import { mountApi, type ApiMount } from './platform/http/mount-api.ts';
import { createErrorHandler, createNotFoundHandler } from './platform/http/error-handler.ts';
import { renderHostJson } from './platform/http/renderers.ts';
import { METRICS_PATH, metricsTokenGuard } from './platform/metrics/metrics.routes.ts';
import { metricsEndpoints } from './platform/metrics/metrics.endpoints.ts';
import { buildRouter } from './platform/http/endpoint.ts';
import { useStrictFreshness } from './platform/http/freshness.ts';
import type { FeatureHttp } from './platform/feature.ts';

/**
 * The Express application, with the request pipeline its mounts run (and the listener runs before a fast
 * path), and the features' fast paths by feature name.
 */
export type App = Express & { pipeline: RequestPipeline; fastPaths: ReadonlyMap<string, FastPath> };

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
 * The APIs of every feature in order, those that share a path joined into one mount (the directory's and the
 * tracker's `/rest/api/2`); joined declarations must agree on everything but their routers.
 */
function joinApis(surfaces: readonly FeatureHttp[]): ApiMount[] {
  const byPath = new Map<string, ApiMount>();
  for (const api of surfaces.flatMap((s) => s.apis ?? [])) {
    const earlier = byPath.get(api.path);
    if (!earlier) byPath.set(api.path, { ...api, routers: [...api.routers] });
    else {
      const { routers: _a, ...rest } = api;
      const { routers: _b, ...first } = earlier;
      if (JSON.stringify(rest) !== JSON.stringify(first) || rest.render !== first.render) throw new Error(`two features declare ${api.path} differently`);
      earlier.routers.push(...api.routers);
    }
  }
  return [...byPath.values()];
}

/**
 * The Express application: the pipeline's steps for every request, then every feature's HTTP surface
 * (platform/feature.ts): the open routes, the APIs (one mount each, with its own error format, in the order
 * of the features) and what comes last. Everything is served under the context path of BASE_URL.
 */
export function createApp(services: AppServices, options: AppOptions = {}): App {
  const defaults = pipelineSteps(services);
  const { config, metrics } = services;
  const pipeline = new RequestPipeline(options.steps ? options.steps(defaults) : defaults, config.contextPath);
  const surfaces = services.features.map((f) => ({ name: f.name, ...f.http?.() }));
  const fastPaths = new Map(surfaces.flatMap((s) => (s.fastPath ? [[s.name, s.fastPath] as const] : [])));
  const app = Object.assign(express(), { pipeline, fastPaths });
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  useStrictFreshness(app);
  useRequestLog(app, services.log);
  app.use(pipeline.everyRequestMiddleware());

  // Under a context path everything hangs off one router; without one, off the app itself (one router
  // level less on every request).
  const root: IRouter = config.contextPath ? Router() : app;
  // Prometheus metrics on this port only with their bearer token (otherwise on METRICS_PORT, or off).
  const metricsToken = config.metrics?.port === 0 ? config.metrics.token : undefined;
  if (metrics && metricsToken) {
    const guards = { metrics: metricsTokenGuard(metricsToken) };
    root.use(METRICS_PATH, buildRouter(metricsEndpoints, { metrics }, { mountedAt: METRICS_PATH, guards }));
  }
  for (const { path, router } of surfaces.flatMap((s) => s.open ?? [])) root.use(path, router);
  for (const api of joinApis(surfaces)) mountApi(root, pipeline, api);
  for (const handler of surfaces.flatMap((s) => s.last ?? [])) root.use(handler);

  if (root !== app) app.use(config.contextPath, root);
  app.use(createNotFoundHandler(), createErrorHandler(renderHostJson));
  metrics?.indexRoutes(app, config.contextPath);
  return app;
}

/**
 * The listener for `http.createServer`. With the fast paths on, it runs the pipeline's steps for every request
 * itself and, for a request a feature's fast path claims (code-block downloads:
 * src/codeblocks/download-fast-path.ts; option lists: src/fieldeditor/options/option-list-fast-path.ts), the
 * API's steps too, then lets the fast path answer from its caches; whatever it does not answer goes to `app`,
 * whose mounts find the steps done (and raise the error one gave, in the API's format). `fastPath` overrides
 * the configuration (tests compare both on one set of services). The fast paths are the app's (`app.fastPaths`,
 * by feature name, where tests read their `answered` counts).
 */
export function createRequestListener(services: AppServices, app: App = createApp(services), fastPath = services.config.fastPath): RequestListener {
  if (!fastPath) return app;
  const { pipeline } = app;
  const fastPaths = [...app.fastPaths.values()];

  function viaFastPath<C extends FastPathClaim>(req: IncomingMessage, res: ServerResponse, fast: FastPath<C>, claim: C): void {
    const api = pipeline.apiOf(req.url ?? '');
    if (api === undefined) return void app(req, res);
    pipeline.runApi(req, res, api, (err) => {
      // A fast path's later error goes to Express as if the API's steps had raised it: the mount's step layer
      // (which finds the steps done) passes it to the API's error handler.
      const toExpress = (error: unknown) => {
        req.pipelineApiError = error;
        app(req, res);
      };
      if (err === undefined && fast.answer(req, res, claim, toExpress)) return;
      app(req, res);
    });
  }

  return (req, res) => {
    pipeline.runEveryRequest(req, res, (err) => {
      if (err === undefined) {
        for (const fast of fastPaths) {
          const claim = fast.claim(req);
          if (claim) return viaFastPath(req, res, fast, claim);
        }
      }
      app(req, res);
    });
  };
}
