import { Router } from 'express';
import { requireAdmin } from '../../platform/auth/guards.ts';
import { API_SPECIFICATION_PATH, EARLIER_SPECIFICATION_PATH } from './description.paths.ts';

/**
 * M4 under one base path: the field editor's OpenAPI document, for administrators only (since 2.10.2; 401
 * without a user, 403 in the field editor's error shape for others). The earlier URL answers 302 to it,
 * also for administrators only, so it reveals nothing either. `basePath` includes the context path.
 */
export function createDescriptionRouter({ document, basePath }: { document: () => string; basePath: string }): Router {
  const r = Router();
  r.get(API_SPECIFICATION_PATH, requireAdmin, (_req, res) => {
    res.type('application/json; charset=utf-8').send(document());
  });
  r.get(EARLIER_SPECIFICATION_PATH, requireAdmin, (_req, res) => {
    // No body, as the description says (Express's redirect would add a text one).
    res.status(302).location(`${basePath}${API_SPECIFICATION_PATH}`).end();
  });
  return r;
}
