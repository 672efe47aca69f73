// What the fast paths have in common (docs/architecture.md, "A request's way"; docs/performance.md): a cache read in front of
// Express for a read that every cache already answers. Each feature brings its own
// (codeblocks/download-fast-path.ts, fieldeditor/options/option-list-fast-path.ts). A fast path replaces only a
// route's handler: the listener (app.ts) runs the whole request pipeline first (pipeline.ts: request id, request
// line, metrics, authentication, the input boundary, …), so there is no step a fast path could skip, and hands
// the request to Express, which finds the steps done, whenever the fast path does not answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendCachedBody, type CachedBody } from './cached-body.ts';

/** A request a fast path recognised as one of its routes: at least the route template Express would label it with. */
export interface FastPathClaim {
  /** The registered route's path without the context path. */
  template: string;
}

/**
 * Hands a request a fast path took to Express with the error it met (after `answer` returned true): Express then
 * answers it as the route would have, in the API's error format.
 */
export type ToExpress = (error: unknown) => void;

/** A cache-hit answerer for some GET and HEAD routes, or a handler of some writes (it answers later). */
export interface FastPath<C extends FastPathClaim = FastPathClaim> {
  /**
   * The claim when `req` is a request of one of this fast path's routes, spelt exactly as registered (any
   * other spelling goes to Express); undefined otherwise. Looks at the method and the URL only.
   */
  claim(req: IncomingMessage): C | undefined;
  /**
   * After the pipeline's steps passed (`req.user` is the caller, if any): answers from the caches and returns
   * true, or returns false having written nothing, and Express answers. A write's fast path returns true once it
   * started the write, answers when it is done, and hands an error to Express with `toExpress`.
   */
  answer(req: IncomingMessage, res: ServerResponse, claim: C, toExpress: ToExpress): boolean;
  /** Requests answered (for tests and diagnostics; not exported as a metric). */
  readonly answered: number;
}

/** A lookup that hit without being counted; `confirm` counts it, as the Express route's lookup would have. */
export interface PeekedHit<T> {
  value: T;
  confirm(): void;
}

/**
 * Answers with a cached body once every lookup hit: counts the hits as the Express route would have, names
 * the route for the request's metrics (the label Express's route would give it), and sends the body as the
 * route does (ETag, 304, negotiated compression, no body for HEAD).
 */
export function answerCachedHit(
  req: IncomingMessage,
  res: ServerResponse,
  template: string,
  hits: readonly { confirm(): void }[],
  body: CachedBody,
  contentType: string,
): void {
  for (const hit of hits) hit.confirm();
  req.routeTemplate = template;
  sendCachedBody(req, res, body, contentType);
}
