import type { Request, RequestHandler } from 'express';
import { administratorRequired, notAuthenticated, notSignedIn, systemAdministratorRequired } from '../http/platform.errors.ts';
import { isAdministrator, type AuthUser } from './auth-user.ts';

/** The authenticated user of a request that passed `requireUser` (throws otherwise, as a 401). */
export function currentUser(req: Request): AuthUser {
  if (!req.user) throw notAuthenticated();
  return req.user;
}

export const requireUser: RequestHandler = (req, _res, next) => next(req.user ? undefined : notAuthenticated());

/** Administrators and system administrators (403 for anyone else, 401 without a user). */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(notAuthenticated());
  next(isAdministrator(req.user) ? undefined : administratorRequired());
};

/** System administrators only (403 for anyone else, administrators included; 401 without a user). */
export const requireSysadmin: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(notAuthenticated());
  next(req.user.isSystemAdmin ? undefined : systemAdministratorRequired());
};

/** Callers signed in with the session cookie only: Basic and Bearer callers get the same 401 as anonymous ones. */
export const requireSession: RequestHandler = (req, _res, next) => next(req.user?.via === 'session' ? undefined : notSignedIn());
