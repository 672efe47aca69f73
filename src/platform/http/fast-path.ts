// What the fast paths have in common (docs/architecture.md, "The fast paths"): a cache-hit answerer tried in
// the HTTP server's request listener before Express, for a read that every cache already answers. Each feature
// brings its own (codeblocks/download-fast-path.ts, fieldeditor/options/option-list-fast-path.ts); this module
// holds the parts that must be the same in all of them, so that an answer given here cannot drift from Express's:
// the credential rule, the request line and metrics, and the cached-body answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticator.ts';
import type { AuthUser } from '../auth/auth-user.ts';
import type { Logger } from '../log/logger.ts';
import { trackRequest, type RequestObserver } from '../log/request-logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { sendCachedBody, type CachedBody } from './cached-body.ts';

/** A cache-hit answerer: answers `req` and returns true, or returns false having read and written nothing. */
export interface FastPath {
  tryAnswer(req: IncomingMessage, res: ServerResponse): boolean;
  /** Requests answered (for tests and diagnostics; not exported as a metric). */
  readonly answered: number;
}

/** What every fast path is given by the composition root. */
export interface FastPathDeps {
  /** The context path of BASE_URL ('' or e.g. `/wiki`). */
  contextPath: string;
  authenticator: Authenticator;
  /** The logger of the request lines (the one useRequestLogging was given). */
  log: Logger;
  metrics: Metrics | undefined;
}

/** A lookup that hit without being counted; `confirm` counts it, as the Express route's lookup would have. */
export interface PeekedHit<T> {
  value: T;
  confirm(): void;
}

/**
 * The request observer that records a fast-path answer under `template`, the route template Express would
 * have put on it (the registered route's path without the context path).
 */
export function routeObserver(metrics: Metrics | undefined, template: string): RequestObserver<IncomingMessage, ServerResponse> | undefined {
  return metrics && ((req, res, seconds) => metrics.routeFinished(template, req.method ?? '', res.statusCode, seconds));
}

/**
 * The signed-in user of a GET or HEAD whose Authorization header is a hit of the authenticator's cache usable
 * now (Basic or Bearer, the change feed live; see Authenticator.peekCachedHeader), uncounted; undefined when
 * the authentication middleware would have to run (no header, another scheme, a miss, the feed down).
 */
export function peekCredential(authenticator: Authenticator, req: IncomingMessage): PeekedHit<AuthUser> | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const credential = authenticator.peekCachedHeader(header);
  return credential && { value: credential.user, confirm: credential.confirm };
}

/**
 * Answers with a cached body once every lookup hit: counts the hits as the Express route would have, logs and
 * measures the request as the request-logging middleware does, and sends the body as the route does
 * (ETag, 304, negotiated compression, no body for HEAD).
 */
export function answerCachedHit(
  deps: FastPathDeps,
  observe: RequestObserver<IncomingMessage, ServerResponse> | undefined,
  hits: readonly { confirm(): void }[],
  req: IncomingMessage,
  res: ServerResponse,
  body: CachedBody,
  contentType: string,
): void {
  for (const hit of hits) hit.confirm();
  trackRequest(deps.log, observe, req, res);
  sendCachedBody(req, res, body, contentType);
}
