import type { Request, RequestHandler } from 'express';
import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { AppError } from '../http/app-error.ts';
import type { Authenticator } from './authenticator.ts';
import { parseBasicAuthorization, parseBearerAuthorization } from './basic-credentials.ts';

export const LOGIN_REASON_HEADER = 'X-Seraph-LoginReason';
const CHALLENGES = ['Basic realm="addon-pair"', 'Bearer realm="addon-pair"'];

/** 401 for a request that carried no usable credentials at all. */
export const notAuthenticated = () =>
  new AppError(401, 'NOT_AUTHENTICATED', 'You are not authenticated. Authentication required to perform this operation.', {
    headers: { 'WWW-Authenticate': CHALLENGES },
  });

/** 401 for credentials that were sent but refused; `denied` means the name is locked after failed logins. */
export const authenticationFailed = (reason: 'failed' | 'denied') =>
  new AppError(
    401,
    reason === 'denied' ? 'AUTHENTICATION_DENIED' : 'AUTHENTICATION_FAILED',
    reason === 'denied'
      ? 'The account is locked after too many failed logins. An administrator can unlock it.'
      : 'The credentials are not valid.',
    {
      headers: {
        [LOGIN_REASON_HEADER]: reason === 'denied' ? 'AUTHENTICATION_DENIED' : 'AUTHENTICATED_FAILED',
        'WWW-Authenticate': CHALLENGES,
      },
    },
  );

type FailureNote = { authFailure?: 'failed' | 'denied' };

/**
 * Builds the middleware every router runs first. No Authorization header: the request goes on anonymously
 * (guards decide). A header that is malformed, wrong, expired or locked: 401 at once, whatever the route.
 * Strategies are passport's; both re-read the header with our own parser (passport-http truncates
 * passwords at a colon, passport-http-bearer also reads tokens from the body and query).
 */
export function createAuthenticate(authenticator: Authenticator): RequestHandler {
  const passport = new Passport();
  passport.use(
    new BasicStrategy({ passReqToCallback: true }, (req: Request, _u: string, _p: string, done: (e: unknown, u?: Express.User | false) => void) => {
      const credentials = parseBasicAuthorization(req.headers.authorization);
      if (!credentials) return done(null, false);
      authenticator.basic(credentials).then((outcome) => {
        if (outcome.ok) return done(null, outcome.user);
        (req as Request & FailureNote).authFailure = outcome.reason;
        done(null, false);
      }, done);
    }),
  );
  passport.use(
    new BearerStrategy({ passReqToCallback: true }, (req: Request, _t: string, done: (e: unknown, u?: Express.User | false) => void) => {
      const token = parseBearerAuthorization(req.headers.authorization);
      if (!token) return done(null, false);
      authenticator.bearer(token).then((outcome) => done(null, outcome.ok ? outcome.user : false), done);
    }),
  );

  return (req, res, next) => {
    if (hasQueryToken(req)) {
      return next(
        new AppError(401, 'TOKEN_IN_QUERY', 'Access tokens are accepted only in the Authorization header.', {
          headers: { 'WWW-Authenticate': CHALLENGES },
        }),
      );
    }
    const header = req.headers.authorization;
    if (header === undefined) return next();
    // Only the strategy of the header's scheme runs (an unknown scheme tries both and fails): cheaper, and a
    // Bearer header never reaches passport-http's parser.
    const strategies = /^bearer /i.test(header) ? ['bearer'] : /^basic /i.test(header) ? ['basic'] : ['basic', 'bearer'];
    passport.authenticate(strategies, { session: false }, (err: unknown, user: Express.User | false) => {
      if (err) return next(err);
      if (!user) return next(authenticationFailed((req as Request & FailureNote).authFailure ?? 'failed'));
      req.user = user;
      next();
    })(req, res, next);
  };
}

function hasQueryToken(req: Request): boolean {
  const q = req.url.indexOf('?');
  return q >= 0 && /(^|&)access_token=/i.test(req.url.slice(q + 1));
}
