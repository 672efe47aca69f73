import type { Request, RequestHandler } from 'express';
import { AppError } from '../http/app-error.ts';
import type { AuthUser } from './auth-user.ts';
import { notAuthenticated } from './authenticate.ts';

/** The authenticated user of a request that passed `requireUser` (throws otherwise, as a 401). */
export function currentUser(req: Request): AuthUser {
  if (!req.user) throw notAuthenticated();
  return req.user;
}

export const requireUser: RequestHandler = (req, _res, next) => next(req.user ? undefined : notAuthenticated());

function requireRole(allowed: (u: AuthUser) => boolean, message: string): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) return next(notAuthenticated());
    next(allowed(req.user) ? undefined : new AppError(403, 'FORBIDDEN', message));
  };
}

/** Administrators and system administrators. */
export const requireAdmin = requireRole(
  (u) => u.isAdmin || u.isSystemAdmin,
  'You must have administrator rights to perform this operation.',
);

export const requireSystemAdmin = requireRole(
  (u) => u.isSystemAdmin,
  'You must have system administrator rights to perform this operation.',
);
