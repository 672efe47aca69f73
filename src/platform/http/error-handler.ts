import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { AppError } from './app-error.ts';
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
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
    render(err, req, res);
  };
}

/** Last route of a router: anything unmatched is a 404 in the router's own format. */
export function createNotFoundHandler(message = 'Not found.'): RequestHandler {
  return (req, _res, next) => next(new AppError(404, 'NOT_FOUND', message, { extra: { path: req.path } }));
}
