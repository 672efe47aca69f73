import type { Request } from 'express';
import type { SessionResolver } from '../../platform/auth/authenticate.ts';
import { readSessionCookie } from './session-cookie.ts';
import { sessionXsrfCheckFailed } from './session.errors.ts';
import type { SessionsService } from './sessions.service.ts';
import { passesXsrfCheck, XSRF_HEADER } from './xsrf.ts';

/**
 * The session credential for the authentication middleware: the `JSESSIONID` cookie's live session, and
 * the XSRF rule for state-changing requests that rely on it. Runs only for requests without Authorization.
 */
export function createSessionResolver(sessions: SessionsService): SessionResolver {
  return async (req: Request) => {
    const id = readSessionCookie(req.headers.cookie);
    if (id === undefined) return undefined;
    const user = await sessions.resolve(id);
    if (user && !passesXsrfCheck(req.method, req.headers[XSRF_HEADER])) throw sessionXsrfCheckFailed();
    return user;
  };
}
