import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { AppError } from './app-error.ts';
import { routeNotFound } from './platform.errors.ts';
import { normalizeError } from './normalize-error.ts';

/**
 * A renderer writes an AppError in the shape one interface documents (Jira JSON, field-editor JSON,
 * code-block XML, plain text …). Status and headers are set before it runs.
 */
export type ErrorRenderer = (err: AppError, req: Request, res: Response) => void;

/**
 * Error middleware for one router: log unexpected errors with the request id, then render. `badInput`
 * replaces 400s for an API that documents another status for bad input (see ApiMount).
 */
export function createErrorHandler(render: ErrorRenderer, badInput?: (err: AppError) => AppError): ErrorRequestHandler {
  return (raw, req, res, next) => {
    if (res.headersSent) return next(raw);
    const normalized = normalizeError(raw);
    const err = badInput && normalized.status === 400 ? badInput(normalized) : normalized;
    if (err.status >= 500) {
      // The request line logs it (see request-logger.ts); the body never carries it.
      res.err = err.cause ?? raw;
    }
    res.status(err.status);
    const quiet = isScriptRequest(req);
    for (const [name, value] of Object.entries(err.headers)) {
      if (quiet && name.toLowerCase() === 'www-authenticate') continue;
      res.setHeader(name, value);
    }
    render(err, req, res);
  };
}

/**
 * A request made by a page's script (`X-Requested-With: XMLHttpRequest`, as the web interface sends). Its 401
 * carries no `WWW-Authenticate` challenge: browsers answer a Basic challenge to a script's request with their
 * own login dialog (and hold the request until it is closed), instead of letting the page show its sign-in form.
 */
export function isScriptRequest(req: Request): boolean {
  return req.headers['x-requested-with'] === 'XMLHttpRequest';
}

/** Last route of a router: anything unmatched is a 404 in the router's own format. */
export function createNotFoundHandler(message = 'Not found.'): RequestHandler {
  return (req, _res, next) => next(routeNotFound(message, req.path));
}
