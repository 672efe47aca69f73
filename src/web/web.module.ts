// Wiring of the web interface's server side: the session service for AppServices and the mounts for
// createApp, kept here so that the shared services.ts and app.ts only gain a line or two each.
import type { IRouter, Request } from 'express';
import type { Config } from '../config.ts';
import type { Db } from '../platform/db/knex.ts';
import type { Authenticator } from '../platform/auth/authenticator.ts';
import type { Logger } from '../platform/log/logger.ts';
import { mountApi } from '../platform/http/mount-api.ts';
import type { RequestPipeline } from '../platform/http/pipeline.ts';
import { renderHostJson } from '../platform/http/renderers.ts';
import { SessionsRepository } from './sessions/sessions.repository.ts';
import { SessionsService } from './sessions/sessions.service.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { sessionEndpoints } from './sessions/session.endpoints.ts';
import { createStaticRouter } from './static.routes.ts';
import { readSessionCookie } from './sessions/session-cookie.ts';

export function createSessionsService(config: Config, db: Db, authenticator: Authenticator, log: Logger): SessionsService {
  return new SessionsService(new SessionsRepository(db.knex), authenticator, { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours, maxPerUser: config.sessionMaxPerUser }, log);
}

/** Mounts the session API (tracker host's error shape) and the interface's page and assets. */
export function mountWeb(root: IRouter, pipeline: RequestPipeline, deps: { config: Config; sessions: SessionsService; log: Logger }): void {
  const { config } = deps;
  const cookie = { contextPath: config.contextPath, secure: config.baseUrl.startsWith('https:') };
  mountApi(root, pipeline, {
    path: '/rest/auth/1',
    render: renderHostJson,
    // The sign-in verifies a password: it counts against RATE_LIMIT_LOGINS (by address: no caller is known yet).
    loginPaths: ['/session'],
    routers: [buildRouter(sessionEndpoints, { sessions: deps.sessions, cookie, baseUrl: config.baseUrl }, { mountedAt: '/rest/auth/1' })],
  });
  const hasLiveSession = async (req: Request) => {
    const id = readSessionCookie(req.headers.cookie);
    return id !== undefined && (await deps.sessions.resolve(id)) !== undefined;
  };
  root.use(createStaticRouter({ contextPath: config.contextPath, log: deps.log, hasLiveSession }));
}
