import type { Request } from 'express';
import type { SessionResolver } from '../../platform/auth/authenticate.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { readSessionCookie } from './session-cookie.ts';
import type { SessionsService } from './sessions.service.ts';
import { passesXsrfCheck, XSRF_HEADER } from './xsrf.ts';

/** Sub-code of the XSRF refusal in the field editor's error shape (other APIs have no sub-codes). */
export const XSRF_SUBCODE = 403004;

export const xsrfCheckFailed = () =>
  new AppError(403, 'XSRF_CHECK_FAILED', 'XSRF check failed: a request signed in by the session cookie must send X-Atlassian-Token: no-check.', {
    subCode: XSRF_SUBCODE,
  });

/**
 * The session credential for the authentication middleware: the `JSESSIONID` cookie's live session, and
 * the XSRF rule for state-changing requests that rely on it. Runs only for requests without Authorization.
 */
export function createSessionResolver(sessions: SessionsService): SessionResolver {
  return async (req: Request) => {
    const id = readSessionCookie(req.headers.cookie);
    if (id === undefined) return undefined;
    const user = await sessions.resolve(id);
    if (user && !passesXsrfCheck(req.method, req.headers[XSRF_HEADER])) throw xsrfCheckFailed();
    return user;
  };
}
