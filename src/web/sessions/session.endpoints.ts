// `/rest/auth/1/session`: sign in (sets the cookie), who am I, sign out; declared once (docs/openapi.md).
import { z } from 'zod';
import { currentUser } from '../../platform/auth/guards.ts';
import { notSignedIn } from '../../platform/http/platform.errors.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { clientAddress } from '../../platform/http/client-address.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { empty, json } from '../../platform/openapi/operation.ts';
import { clearedSessionCookie, readSessionCookie, sessionCookie, SESSION_COOKIE, type CookieScope } from './session-cookie.ts';
import { signInRefused } from './session.errors.ts';
import { signInBody } from './session.schemas.ts';
import type { SessionsService } from './sessions.service.ts';

export interface SessionDeps {
  sessions: SessionsService;
  cookie: CookieScope;
  baseUrl: string;
}

const TAG = 'Sessions';
const PATH = '/rest/auth/1/session';

const signedIn = z
  .object({
    session: z.object({ name: z.literal('JSESSIONID'), value: z.string() }),
    loginInfo: z.object({ failedLoginCount: z.number().int(), previousLoginTime: z.string().optional() }),
  })
  .meta({ title: 'SignedIn' });
const current = z
  .object({ self: z.string(), name: z.string(), displayName: z.string(), authenticatedBy: z.enum(['basic', 'bearer', 'session']) })
  .meta({ title: 'CurrentUser' });

export const sessionEndpoints: Endpoint<SessionDeps>[] = [
  {
    method: 'post', path: PATH, tag: TAG, access: 'anyone',
    summary: 'Sign in with a user name and password: sets the JSESSIONID cookie (lockout rules as for Basic)',
    body: signInBody, responses: { 200: json(signedIn, 'Signed in; the cookie is set') }, errors: [400, 401, 429, 503],
    handle: async (req, res, { sessions, cookie }) => {
      const body = parseWith(signInBody, req.body, 'body');
      const result = await sessions.signIn(body.username, body.password, clientAddress(req));
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
    },
  },
  {
    method: 'get', path: PATH, tag: TAG, access: 'user', summary: 'Who the caller is, and how it authenticated',
    responses: { 200: json(current, 'The current user') },
    handle: (req, res, { baseUrl }) => {
      const user = currentUser(req);
      res.setHeader('Cache-Control', 'no-store');
      res.json({
        self: `${baseUrl}/rest/api/2/user?username=${encodeURIComponent(user.name)}`,
        name: user.name,
        displayName: user.displayName,
        authenticatedBy: user.via,
      });
    },
  },
  {
    method: 'delete', path: PATH, tag: TAG, access: 'session', summary: 'Sign out: the session ends on every node and the cookie is cleared',
    responses: { 204: empty('Signed out') },
    handle: async (req, res, { sessions, cookie }) => {
      const id = readSessionCookie(req.headers.cookie);
      if (id === undefined) throw notSignedIn();
      await sessions.signOut(id);
      res.setHeader('Set-Cookie', clearedSessionCookie(cookie));
      res.status(204).end();
    },
  },
];
