// OpenAPI declarations of the sign-in session routes (the tracker host's /rest/auth/1/session); see docs/openapi.md.
import { z } from 'zod';
import { empty, json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { signInBody } from './session.schemas.ts';

const TAG = 'Sessions';

const signedIn = z
  .object({
    session: z.object({ name: z.literal('JSESSIONID'), value: z.string() }),
    loginInfo: z.object({ failedLoginCount: z.number().int(), previousLoginTime: z.string().optional() }),
  })
  .meta({ title: 'SignedIn' });
const current = z
  .object({ self: z.string(), name: z.string(), displayName: z.string(), authenticatedBy: z.enum(['basic', 'bearer', 'session']) })
  .meta({ title: 'CurrentUser' });

export const sessionOperations: OperationDoc[] = [
  {
    method: 'post', path: '/rest/auth/1/session', tag: TAG, access: 'anyone',
    summary: 'Sign in with a user name and password: sets the JSESSIONID cookie (lockout rules as for Basic)',
    body: signInBody, responses: { 200: json(signedIn, 'Signed in; the cookie is set') }, errors: [400, 401],
  },
  {
    method: 'get', path: '/rest/auth/1/session', tag: TAG, access: 'user', summary: 'Who the caller is, and how it authenticated',
    responses: { 200: json(current, 'The current user') },
  },
  {
    method: 'delete', path: '/rest/auth/1/session', tag: TAG, access: 'user', summary: 'Sign out: the session ends on every node and the cookie is cleared',
    responses: { 204: empty('Signed out') }, errors: [401],
  },
];
