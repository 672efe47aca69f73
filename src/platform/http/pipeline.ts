// The one request pipeline (docs/architecture.md, "A request's way"): the per-request steps, in order,
// that every road a request can take runs. Express runs them as middleware; the listener runs them in front of
// a fast path (a cached answer given before Express) and hands the request to Express on a miss, which then
// finds them done. Either way a step runs once, and a step added to the list is on every road.
// Steps see Node's request and response only (no Express helpers): on the fast paths they are plain objects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { UploadRule } from './upload.ts';
import type { FormRule } from './form-body.ts';

export type StepNext = (err?: unknown) => void;

/** An API mount as the steps see it (mount-api.ts registers each). */
export interface ApiInfo {
  /** Base path under the context path, e.g. `/rest/api/2`, and its aliases (`/rest/api/latest`). */
  readonly paths: readonly string[];
  /** Largest JSON body accepted (bytes). */
  readonly bodyLimit: number;
  /** Whether a state-changing request with a body that is not JSON is refused (body-type.ts). */
  readonly refuseNonJsonBodies: boolean;
  /** `downloads`: every request of this API counts against the download limit (the code-block API). */
  readonly family?: 'downloads' | undefined;
  /** Paths where a body of the named types is a file the route reads itself (upload.ts). */
  readonly uploads?: readonly UploadRule[] | undefined;
  /** Operations that read a form body from a script into their JSON body (form-body.ts). */
  readonly forms?: readonly FormRule[] | undefined;
  /**
   * Paths (context path included, lower case, no trailing slash) where a POST verifies a password (the
   * sign-in): such a request counts against the login limit, before its handler hashes anything.
   */
  readonly loginPaths?: readonly string[] | undefined;
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

/**
 * How far a request went: each phase runs once, and its outcome is kept on the request for the road that takes
 * over. Plain fields rather than a record, since every request of the hot paths would allocate one.
 */
declare module 'http' {
  interface IncomingMessage {
    /** The steps for every request have run; `pipelineEveryError` is what they refused with, if anything. */
    pipelineEveryDone?: boolean;
    pipelineEveryError?: unknown;
    /** The API whose steps have run; `pipelineApiError` is what they refused with, if anything. */
    pipelineApi?: ApiInfo;
    pipelineApiError?: unknown;
  }
}

/**
 * Runs `steps` in order; `done` gets the first error (or undefined), exactly once, even when a step throws. Steps
 * that call `next` before they return are run in a loop, without recursion; a step that goes on later resumes it.
 */
function runSteps(steps: readonly RequestStep[], req: IncomingMessage, res: ServerResponse, api: ApiInfo | undefined, done: StepNext): void {
  let i = 0;
  let finished = false;
  let looping = false;
  let calledBack = false;
  const finish = (err: unknown) => {
    if (finished) return;
    finished = true;
    done(err);
  };
  const next: StepNext = (err) => {
    if (err !== undefined) return finish(err);
    if (looping) calledBack = true;
    else loop();
  };
  const loop = () => {
    looping = true;
    while (!finished && i < steps.length) {
      const step = steps[i++]!;
      calledBack = false;
      try {
        step.run(req, res, next, api);
      } catch (thrown) {
        finish(thrown ?? new Error(`pipeline step ${step.name} threw`));
      }
      // Not called back yet: the step goes on later and calls `next` then, which resumes the loop.
      if (!calledBack) {
        looping = false;
        return;
      }
    }
    looping = false;
    finish(undefined);
  };
  loop();
}

/**
 * True when `url` (a request's URL, query included) is `prefixLower` or below it, compared as Express's mounts
 * compare (case-insensitive), without making a string: the listener asks this of every fast-path request.
 */
function underPrefix(url: string, prefixLower: string): boolean {
  const n = prefixLower.length;
  if (url.length < n) return false;
  if (url.length > n) {
    const after = url.charCodeAt(n);
    if (after !== 47 /* / */ && after !== 63 /* ? */) return false;
  }
  for (let k = 0; k < n; k++) {
    let c = url.charCodeAt(k);
    if (c >= 65 && c <= 90) c += 32; // A-Z
    if (c !== prefixLower.charCodeAt(k)) return false;
  }
  return true;
}

export class RequestPipeline {
  private readonly mounts: { info: ApiInfo; fullLower: string }[] = [];

  constructor(
    readonly steps: PipelineSteps,
    private readonly contextPath: string,
  ) {}

  /**
   * Registers an API mount (at each of its paths), in the order Express tries them (mount-api.ts). `logins`:
   * paths under the mount where a POST is a login (see ApiInfo.loginPaths), under each of its paths.
   */
  addApi(paths: readonly string[], options: Omit<ApiInfo, 'paths' | 'loginPaths'>, logins?: readonly string[]): ApiInfo {
    const loginPaths = logins && paths.flatMap((p) => logins.map((l) => (this.contextPath + p + l).toLowerCase().replace(/\/+$/, '')));
    const info: ApiInfo = { paths, ...options, ...(loginPaths ? { loginPaths } : {}) };
    for (const path of paths) this.mounts.push({ info, fullLower: (this.contextPath + path).toLowerCase() });
    return info;
  }

  /** The API mount Express routes `url` (context path included; a query may follow) to: the first registered that matches. */
  apiOf(url: string): ApiInfo | undefined {
    for (const m of this.mounts) if (underPrefix(url, m.fullLower)) return m.info;
    return undefined;
  }

  /** The steps for every request, once per request; `done` gets their outcome (again on a second call). */
  runEveryRequest(req: IncomingMessage, res: ServerResponse, done: StepNext): void {
    if (req.pipelineEveryDone) return done(req.pipelineEveryError);
    runSteps(this.steps.everyRequest, req, res, undefined, (error) => {
      req.pipelineEveryDone = true;
      req.pipelineEveryError = error;
      done(error);
    });
  }

  /** The API steps for `api`, once per request; `done` gets their outcome (again on a second call). */
  runApi(req: IncomingMessage, res: ServerResponse, api: ApiInfo, done: StepNext): void {
    if (req.pipelineApi === api) return done(req.pipelineApiError);
    runSteps(this.steps.apiRequest, req, res, api, (error) => {
      req.pipelineApi = api;
      req.pipelineApiError = error;
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
