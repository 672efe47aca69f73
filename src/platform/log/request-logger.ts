import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, Request } from 'express';
import type { RequestStep } from '../http/pipeline.ts';
import type { Logger } from './logger.ts';

/** Header that carries the request id in and out (a caller's id is kept when it looks sane). */
export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'http' {
  interface IncomingMessage {
    /** This request's id, also sent back in `X-Request-Id`. */
    id: string;
    /** A logger whose lines carry this request (id, method, url); created on first use. */
    log: Logger;
  }
  interface ServerResponse {
    /** An unexpected error the error handler answered with a 500; the request line logs it. */
    err?: unknown;
  }
}

/**
 * Request logging on pino, the job pino-http does, at a fraction of its cost: one line per finished
 * request with id, method, url, status and time (`error` for 5xx, `warn` for 4xx but 429, `info` otherwise), in
 * pino-http's shape. pino-http builds a child logger and three listeners for every request, which measured
 * at about a quarter of a cached GET's CPU time; here the child is made only when a handler logs, and the
 * line only when its level is enabled.
 */
/** Told about every finished request (the metrics' request timings), from the same listener as the log line. */
export type RequestObserver = (req: IncomingMessage, res: ServerResponse, seconds: number) => void;

/**
 * The first step of the request pipeline (platform/http/pipeline.ts), for every request on every road: the
 * request id (the caller's when sane), `X-Request-Id`, and on 'close' the observer and the request line.
 */
export function requestTrackingStep(logger: Logger, observe?: RequestObserver): RequestStep {
  return {
    name: 'request-tracking',
    run(req, res, next) {
      trackRequest(logger, observe, req, res);
      next();
    },
  };
}

function trackRequest(logger: Logger, observe: RequestObserver | undefined, req: IncomingMessage, res: ServerResponse): void {
  const incoming = req.headers[REQUEST_ID_HEADER];
  req.id = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', req.id);
  const started = performance.now();
  // 'close' comes once per response, after 'finish' or when the client went away first.
  res.on('close', () => requestClosed(logger, observe, req, res, started));
}

/** `req.log` of the app's requests: a child logger carrying the request, made on first use. */
export function useRequestLog(app: Express, logger: Logger): void {
  // `app.request` is the prototype of every request of this app: one getter instead of a child per request.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request) {
      const log = logger.child({ req: this });
      Object.defineProperty(this, 'log', { value: log, configurable: true });
      return log;
    },
  });
}

function requestClosed(logger: Logger, observe: RequestObserver | undefined, req: IncomingMessage, res: ServerResponse, started: number): void {
  const ms = performance.now() - started;
  observe?.(req, res, ms / 1000);
  logRequestLine(logger, req, res, Math.round(ms));
}

function logRequestLine(logger: Logger, req: IncomingMessage, res: ServerResponse, responseTime: number): void {
  const err = res.err;
  // A 429 is a limit doing its work (counted by addon_pair_rate_limited_total), not a failure: at `info`, so that a
  // client flooding a limit cannot make the server write a warning for every refused request.
  const status = res.statusCode;
  const level = err !== undefined || status >= 500 ? 'error' : status >= 400 && status !== 429 ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const msg = err !== undefined ? 'request errored' : res.writableFinished ? 'request completed' : 'request aborted';
  logger[level]({ req, res, err, responseTime }, msg);
}
