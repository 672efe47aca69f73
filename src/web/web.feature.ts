// The web interface's server side as a feature (platform/feature.ts): sign-in sessions (the third credential),
// the session API under `/rest/auth/1`, and the page with its assets at the root of the context path.
import type { Request } from 'express';
import type { Feature, FeatureContext } from '../platform/feature.ts';
import type { DirectoryHookSet } from '../directory/directory-hooks.ts';
import { renderHostJson } from '../platform/http/renderers.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { SessionsRepository } from './sessions/sessions.repository.ts';
import { SessionsService } from './sessions/sessions.service.ts';
import { sessionEndpoints } from './sessions/session.endpoints.ts';
import { createStaticRouter } from './static.routes.ts';
import { readSessionCookie } from './sessions/session-cookie.ts';

const SESSION_API = '/rest/auth/1';

export function createWebFeature({ config, db, authenticator, log }: FeatureContext): Feature<SessionsService, { directory: DirectoryHookSet }> {
  const repo = new SessionsRepository(db.knex);
  const sessions = new SessionsService(
    repo,
    authenticator,
    { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours, maxPerUser: config.sessionMaxPerUser },
    log,
  );
  const cookie = { contextPath: config.contextPath, secure: config.baseUrl.startsWith('https:') };
  const hasLiveSession = async (req: Request) => {
    const id = readSessionCookie(req.headers.cookie);
    return id !== undefined && (await sessions.resolve(id)) !== undefined;
  };
  return {
    name: 'web',
    services: sessions,
    // A deactivated user's sessions end in the deactivation's transaction (a later reactivation revives none).
    hooks: { directory: { userDeactivated: (trx, user) => repo.deleteOfUser(trx, user.id) } },
    http: () => ({
      apis: [
        {
          path: SESSION_API,
          render: renderHostJson,
          // The sign-in verifies a password: it counts against RATE_LIMIT_LOGINS (by address: no caller is known yet).
          loginPaths: ['/session'],
          routers: [buildRouter(sessionEndpoints, { sessions, cookie, baseUrl: config.baseUrl }, { mountedAt: SESSION_API })],
        },
      ],
      // The page answers every path no API claimed, so it comes after all of them.
      last: [createStaticRouter({ contextPath: config.contextPath, log, hasLiveSession, lockoutMinutes: config.lockoutMinutes })],
    }),
  };
}
