import http from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics.ts';

/** Path of the exposition, on the main port (under the context path) or on METRICS_PORT (at the root). */
export const METRICS_PATH = '/metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** True when the Authorization header is `Bearer <token>`; compared in constant time (hashes of equal length). */
function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), expected);
}

function refuse(res: http.ServerResponse): void {
  res.statusCode = 401;
  res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).\n');
}

/** Answers the exposition (no body for HEAD). */
export async function sendExposition(metrics: Metrics, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { contentType, body } = await metrics.scrape();
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * The guard of the `metrics` access (metrics.endpoints.ts): the bearer token METRICS_TOKEN, never a user's
 * credential, refused with 401 and a plain-text body.
 */
export function metricsTokenGuard(token: string): RequestHandler {
  const expected = digest(token);
  return (req: Request, res: Response, next) => (tokenMatches(req.headers.authorization, expected) ? next() : refuse(res));
}

/**
 * The listener of METRICS_PORT: `/metrics` only (with the token when one is set), 404 for everything else, so
 * the port can be opened to the monitoring network alone.
 */
export function createMetricsServer(metrics: Metrics, token: string | undefined): http.Server {
  const expected = token === undefined ? undefined : digest(token);
  return http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = path === METRICS_PATH ? 405 : 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      return void res.end(path === METRICS_PATH ? 'Method not allowed.\n' : 'Not found.\n');
    }
    if (expected && !tokenMatches(req.headers.authorization, expected)) return refuse(res);
    sendExposition(metrics, req, res).catch(() => {
      res.statusCode = 500;
      res.end('Internal server error\n');
    });
  });
}
