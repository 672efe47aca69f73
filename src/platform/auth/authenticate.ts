import type { IncomingMessage, ServerResponse } from 'node:http';
import passport from 'passport';
import { authenticationFailed, readOnlyToken, tokenInQuery } from '../http/platform.errors.ts';
import type { RequestStep, StepNext } from '../http/pipeline.ts';
import type { Authenticator } from './authenticator.ts';
import { BasicHeaderStrategy, BearerHeaderStrategy, SessionCookieStrategy, type HeaderStrategy, type SessionResolver } from './strategies.ts';

export type { SessionResolver } from './strategies.ts';

const mayUse = (user: Express.User, method: string | undefined) => !user.readOnly || method === 'GET' || method === 'HEAD';

/** What passport's `authenticate` callback is given: an error, or the user (false: failed, with its challenge). */
type PassportDone = (err: unknown, user?: Express.User | false, challenge?: unknown) => void;

/**
 * The authentication step of the request pipeline, which every API runs first. No Authorization header: the
 * session cookie, if any, else the request goes on anonymously (guards decide). A header that is malformed,
 * wrong, expired or locked: 401 at once, whatever the route. The strategy of the header's scheme runs through
 * passport's `authenticate`; an unknown scheme is a failed login.
 */
export function authenticationStep(authenticator: Authenticator, resolveSession?: SessionResolver): RequestStep {
  // An instance of our own, not passport's global singleton: only our strategies are registered on it.
  const auth = new passport.Passport();
  const basic = new BasicHeaderStrategy(authenticator);
  const bearer = new BearerHeaderStrategy(authenticator);
  auth.use(basic);
  auth.use(bearer);
  if (resolveSession) auth.use(new SessionCookieStrategy(resolveSession));

  /**
   * passport's `authenticate` for one strategy. Its callback form is bound when the middleware is made, so it is
   * made per request: only on the slow path (a cache miss hashes a credential; a session is looked up).
   * `next` is what passport calls when the strategy passes (no session: anonymous).
   */
  const run = (name: string, req: IncomingMessage, res: ServerResponse, done: PassportDone, next: StepNext) => {
    const middleware = auth.authenticate(name, { session: false }, done) as (q: IncomingMessage, s: ServerResponse, n: StepNext) => void;
    middleware(req, res, next);
  };

  return {
    name: 'authentication',
    run(req, res, next) {
      if (hasQueryToken(req.url ?? '')) {
        return next(tokenInQuery());
      }
      const header = req.headers.authorization;
      if (header === undefined) {
        // Cookies are looked at only without an Authorization header, so Basic and Bearer pay nothing for
        // sessions. No live session: the strategy passes, and the request goes on anonymously.
        if (resolveSession === undefined || req.headers.cookie === undefined) return next();
        return run(SessionCookieStrategy.NAME, req, res, (err, user) => (err ? next(err) : accept(req, user, next)), next);
      }
      const strategy: HeaderStrategy | undefined = /^bearer /i.test(header) ? bearer : /^basic /i.test(header) ? basic : undefined;
      if (!strategy) return next(authenticationFailed('failed'));
      // The hot path: a credential verified shortly before is answered from memory, without passport's
      // per-request objects. Anything else (first use, wrong, expired, locked) runs the strategy.
      const known = strategy.cached(header, req);
      if (known) return accept(req, known, next);
      run(
        strategy.name,
        req,
        res,
        (err, user, challenge) => {
          if (err) return next(err);
          if (!user) {
            const why = challenge as { reason?: 'failed' | 'denied'; hint?: 'token' } | undefined;
            return next(authenticationFailed(why?.reason ?? 'failed', authenticator.lockoutMinutes, why?.hint));
          }
          accept(req, user, next);
        },
        next,
      );
    },
  };
}

function accept(req: IncomingMessage, user: Express.User | false | undefined, next: StepNext): void {
  if (!user) return next();
  req.user = user;
  next(mayUse(user, req.method) ? undefined : readOnlyToken());
}

/** `access_token=` as a parameter of the query (searched from the `?` on, without cutting the URL: hot path). */
const QUERY_TOKEN_ANYWHERE = /[?&]access_token=/gi;

function hasQueryToken(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  QUERY_TOKEN_ANYWHERE.lastIndex = q;
  return QUERY_TOKEN_ANYWHERE.test(url);
}
