// The one request pipeline (docs/architecture.md, "A request's way"): the per-request steps, in order,
// that every road a request can take runs. Express runs them as middleware; the listener runs them in front of
// a fast path (a cached answer given before Express) and hands the request to Express on a miss, which then
// finds them done. Either way a step runs once, and a step added to the list is on every road.
// Steps see Node's request and response only (no Express helpers): on the fast paths they are plain objects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

export type StepNext = (err?: unknown) => void;

/** An API mount as the steps see it (mount-api.ts registers each). */
export interface ApiInfo {
  /** Base path under the context path, e.g. `/rest/api/2`, and its aliases (`/rest/api/latest`). */
  readonly paths: readonly string[];
  /** Largest JSON body accepted (bytes). */
  readonly bodyLimit: number;
  /** Whether a state-changing request with a body that is not JSON is refused (body-type.ts). */
  readonly refuseNonJsonBodies: boolean;
}

export interface RequestStep {
  /** For logs and tests. */
  readonly name: string;
  /**
   * Goes on with `next()` (synchronously when it can: the hot paths count every tick) or refuses with
   * `next(err)`; an API step's error is answered in that API's error format. `api` is undefined for the
   * steps of every request.
   */
  run(req: IncomingMessage, res: ServerResponse, next: StepNext, api: ApiInfo | undefined): void;
}

export interface PipelineSteps {
  /** For every request, first: request id, request line, metrics. */
  readonly everyRequest: readonly RequestStep[];
  /** For every request under an API mount: authentication, the input boundary, limits. */
  readonly apiRequest: readonly RequestStep[];
}

/** How far a request went: each phase runs once, and its outcome is kept for the road that takes over. */
interface Progress {
  every?: { error: unknown };
  api?: { mount: ApiInfo; error: unknown };
}

declare module 'http' {
  interface IncomingMessage {
    /** This request's progress through the pipeline (see RequestPipeline). */
    pipeline?: Progress;
  }
}

/** Runs `steps` in order; `done` gets the first error, exactly once, even when a step throws. */
function runSteps(steps: readonly RequestStep[], req: IncomingMessage, res: ServerResponse, api: ApiInfo | undefined, done: StepNext): void {
  let i = 0;
  let finished = false;
  const finish = (err: unknown) => {
    if (finished) return;
    finished = true;
    done(err);
  };
  const next: StepNext = (err) => {
    if (err !== undefined || i === steps.length) return finish(err);
    const step = steps[i++]!;
    try {
      step.run(req, res, next, api);
    } catch (thrown) {
      finish(thrown ?? new Error(`pipeline step ${step.name} threw`));
    }
  };
  next();
}

/** True when `pathname` is `prefix` or below it, compared as Express's mounts compare (case-insensitive). */
function underPrefix(pathname: string, prefixLower: string): boolean {
  const n = prefixLower.length;
  if (pathname.length < n) return false;
  if (pathname.length > n && pathname.charCodeAt(n) !== 47 /* '/' */) return false;
  return pathname.slice(0, n).toLowerCase() === prefixLower;
}

export class RequestPipeline {
  private readonly mounts: { info: ApiInfo; fullLower: string }[] = [];

  constructor(
    readonly steps: PipelineSteps,
    private readonly contextPath: string,
  ) {}

  /** Registers an API mount (at each of its paths), in the order Express tries them (mount-api.ts). */
  addApi(paths: readonly string[], options: Omit<ApiInfo, 'paths'>): ApiInfo {
    const info: ApiInfo = { paths, ...options };
    for (const path of paths) this.mounts.push({ info, fullLower: (this.contextPath + path).toLowerCase() });
    return info;
  }

  /** The API mount Express routes `pathname` (context path included) to: the first registered that matches. */
  apiOf(pathname: string): ApiInfo | undefined {
    for (const m of this.mounts) if (underPrefix(pathname, m.fullLower)) return m.info;
    return undefined;
  }

  /** The steps for every request, once per request; `done` gets their outcome (again on a second call). */
  runEveryRequest(req: IncomingMessage, res: ServerResponse, done: StepNext): void {
    const progress = (req.pipeline ??= {});
    if (progress.every) return done(progress.every.error);
    runSteps(this.steps.everyRequest, req, res, undefined, (error) => {
      progress.every = { error };
      done(error);
    });
  }

  /** The API steps for `api`, once per request; `done` gets their outcome (again on a second call). */
  runApi(req: IncomingMessage, res: ServerResponse, api: ApiInfo, done: StepNext): void {
    const progress = (req.pipeline ??= {});
    if (progress.api?.mount === api) return done(progress.api.error);
    runSteps(this.steps.apiRequest, req, res, api, (error) => {
      progress.api = { mount: api, error };
      done(error);
    });
  }

  /** Express: the first middleware of the app. */
  everyRequestMiddleware(): RequestHandler {
    return (req, res, next) => this.runEveryRequest(req, res, next);
  }

  /** Express: the middleware at the top of an API mount; an error the steps gave is raised here, in the API's format. */
  apiMiddleware(api: ApiInfo): RequestHandler {
    return (req, res, next) => this.runApi(req, res, api, next);
  }
}
