// API 1.1's status conventions where they differ from 1.2 (notes-fieldeditor.md §1.2 and the 1.1 description:
// "500: User has no rights on customfield. Customfield with that ID does not exist. Or any other error."),
// and its 412 for a route that only later versions have.
import { Router, type RequestHandler } from 'express';
import { requireUser } from '../../platform/auth/guards.ts';
import type { AppError } from '../../platform/http/app-error.ts';
import type { ErrorRenderer } from '../../platform/http/error-handler.ts';
import { notUnder11, renderFieldEditor, SUB } from '../shared/fieldeditor.errors.ts';

/** The refusals 1.1 answered with 500: no grant, no such field, deletes for administrators only. */
const RIGHTS_SUBCODES: ReadonlySet<number> = new Set([SUB.NO_GRANT, SUB.FIELD_NOT_FOUND, SUB.DELETE_ADMINS_ONLY]);

/** Whether 1.1 answers this error with 500: a missing right, or an entity that does not exist (not an unknown route). */
function answeredAs500(err: AppError): boolean {
  if (err.status === 403) return err.subCode !== undefined && RIGHTS_SUBCODES.has(err.subCode);
  return err.status === 404 && err.code !== 'NOT_FOUND';
}

/**
 * The field editor's error body (`{statusCode, subCode, message}`, `errors[]` on a 400) with 1.1's statuses:
 * missing rights and unknown fields, contexts and options are 500, keeping their subCode and message (a
 * client learns what happened); everything else as under 1.2.
 */
export const renderFieldEditor11: ErrorRenderer = (err, req, res) => {
  if (!answeredAs500(err)) return renderFieldEditor(err, req, res);
  res.status(500);
  res.json({ statusCode: 500, subCode: err.subCode ?? SUB.INTERNAL, message: err.message });
};

/** An OpenAPI path template as a pattern of request paths (Express's matching: any case, an optional trailing slash). */
const patternOf = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}/?$`, 'i');

/**
 * Last router of a 1.1 base path: a request for a route of the later generations (their declared paths,
 * whatever the method) answers 412 (to a signed-in user; 401 otherwise), as the original did; anything else
 * goes on to the 404.
 */
export function laterRoutes412(laterPaths: readonly string[]): Router {
  const patterns = [...new Set(laterPaths)].map(patternOf);
  const refuse: RequestHandler = (req, res, next) => {
    if (!patterns.some((p) => p.test(req.path))) return next();
    requireUser(req, res, (err?: unknown) => next(err ?? notUnder11()));
  };
  return Router().use(refuse);
}
