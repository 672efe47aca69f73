import { Router, type Request } from 'express';
import { AppError } from '../../platform/http/app-error.ts';
import { LOGIN_REASON_HEADER } from '../../platform/auth/authenticate.ts';
import { currentUser, requireUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { clearedSessionCookie, readSessionCookie, sessionCookie, SESSION_COOKIE, type CookieScope } from './session-cookie.ts';
import { signInBody } from './session.schemas.ts';
import type { SessionsService } from './sessions.service.ts';

/**
 * A refused sign-in: the answers of Basic (same for an unknown user and a wrong password), but without a
 * `WWW-Authenticate` challenge, which would make a browser open its own login dialog over the form.
 */
const signInRefused = (reason: 'failed' | 'denied') =>
  new AppError(
    401,
    reason === 'denied' ? 'AUTHENTICATION_DENIED' : 'AUTHENTICATION_FAILED',
    reason === 'denied'
      ? 'The account is locked after too many failed logins. An administrator can unlock it.'
      : 'Login failed: the username or the password is not valid.',
    { headers: { [LOGIN_REASON_HEADER]: reason === 'denied' ? 'AUTHENTICATION_DENIED' : 'AUTHENTICATED_FAILED' } },
  );

const notSignedIn = () => new AppError(401, 'NOT_SIGNED_IN', 'There is no session to end: you are not signed in with a session.');

/** `/rest/auth/1/session`: sign in (sets the cookie), who am I, sign out. */
export function createSessionRouter(deps: { sessions: SessionsService; cookie: CookieScope; baseUrl: string }): Router {
  const r = Router();
  const { sessions, cookie, baseUrl } = deps;

  r.post('/session', async (req, res) => {
    const body = parseWith(signInBody, req.body, 'body');
    const result = await sessions.signIn(body.username, body.password);
    if (!result.ok) throw signInRefused(result.reason);
    res.setHeader('Set-Cookie', sessionCookie(result.id, cookie));
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      session: { name: SESSION_COOKIE, value: result.id },
      loginInfo: {
        failedLoginCount: result.priorFailures,
        ...(result.previousSignIn ? { previousLoginTime: result.previousSignIn.toISOString() } : {}),
      },
    });
  });

  r.get('/session', requireUser, (req, res) => {
    const user = currentUser(req);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      self: `${baseUrl}/rest/api/2/user?username=${encodeURIComponent(user.name)}`,
      name: user.name,
      displayName: user.displayName,
      authenticatedBy: user.via,
    });
  });

  r.delete('/session', async (req: Request, res) => {
    const id = readSessionCookie(req.headers.cookie);
    if (req.user?.via !== 'session' || id === undefined) throw notSignedIn();
    await sessions.signOut(id);
    res.setHeader('Set-Cookie', clearedSessionCookie(cookie));
    res.status(204).end();
  });

  return r;
}
