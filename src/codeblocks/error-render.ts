// Error bodies of the download API, per generation and per endpoint format:
// E1 (and /code) plain text, E2 XML, E3 JSON. Status and headers (X-Seraph-LoginReason,
// WWW-Authenticate) are already set by the error handler; this only writes the body.
import type { Request, Response } from 'express';
import type { AppError } from '../platform/http/app-error.ts';
import type { ErrorRenderer } from '../platform/http/error-handler.ts';
import { errorKeyFor } from './codebox/codebox-errors.ts';
import { codeblocksErrorExtra } from './download.errors.ts';
import { MESSAGES, PATHS, type Generation } from './generation.ts';
import { renderJsonError, renderJsonHostStatus, renderXmlError, renderXmlHostStatus, type ErrorBody } from './list-render.ts';

export const CONTENT_TYPES = {
  text: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const;

type Format = keyof typeof CONTENT_TYPES;

function formatOf(req: Request): Format {
  // Express routes ignore case and a trailing slash; the error format must match what the route answers.
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  if (path === PATHS.listXml) return 'xml';
  if (path === PATHS.listJson || path === PATHS.contentList) return 'json';
  return 'text';
}

/** The app's own body for an error (everything except host-produced 401s). */
export function appErrorBody(gen: Generation, err: AppError): ErrorBody {
  if (err.status === 401) return { error: gen.keys.unauthorized, message: MESSAGES.unauthorized };
  if (err.status === 403) return { error: gen.keys.forbidden, message: err.message };
  // A limit (429) or busy password checks (503): the key and our message (when to come back), in every generation.
  if (err.status === 429) return { error: gen.keys.tooManyRequests, message: err.message };
  if (err.status === 503) return { error: gen.keys.unavailable, message: err.message };
  const ours = codeblocksErrorExtra(err);
  if (!gen.refinedErrors) return { error: gen.keys.error, message: MESSAGES.error };
  return {
    error: ours ? errorKeyFor(ours.kind) : gen.keys.error,
    message: MESSAGES.error,
    // Unexpected errors never show their own message (it may carry SQL or paths).
    extraMessage: ours ? ours.extraMessage : 'Internal server error',
  };
}

function send(res: Response, format: Format, body: string): void {
  // Plain text may echo what a request carried: a browser must not sniff it into HTML.
  if (format === 'text') res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Type', CONTENT_TYPES[format]);
  res.send(body);
}

function textOf(body: ErrorBody): string {
  // Plain text: the message, and in generations with refined keys a second line naming the key and cause.
  return body.extraMessage === undefined ? `${body.message}\n` : `${body.message}\n${body.error}: ${body.extraMessage}\n`;
}

export function createCodeblocksErrorRenderer(gen: Generation): ErrorRenderer {
  return (err, req, res) => {
    const format = formatOf(req);
    if (err.status === 404 && err.code === 'NOT_FOUND') return send(res, 'text', `${err.message}\n`);
    if (err.status === 401 && gen.hostAuthBodies) {
      if (format === 'xml') return send(res, format, renderXmlHostStatus(401, MESSAGES.hostUnauthorized));
      if (format === 'json') return send(res, format, renderJsonHostStatus(401, MESSAGES.hostUnauthorized));
      return send(res, format, `${MESSAGES.hostUnauthorized}\n`);
    }
    const body = appErrorBody(gen, err);
    if (format === 'xml') return send(res, format, renderXmlError(body));
    if (format === 'json') return send(res, format, renderJsonError(body));
    send(res, format, textOf(body));
  };
}
