import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type Logger, type DestinationStream } from 'pino';
import { pinoHttp } from 'pino-http';

export type { Logger };

/** Header that carries the request id in and out (a caller's id is kept when it looks sane). */
export const REQUEST_ID_HEADER = 'x-request-id';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      // Belt and braces: the serializers below never copy headers or bodies, but a stray `log.info({ headers })`
      // or `log.info({ password })` must not leak them. No wildcard-first paths: those make pino run the slow
      // redacting stringifier on every binding of every request.
      redact: {
        paths: ['headers.authorization', 'headers.cookie', 'authorization', 'cookie', 'password', 'rawToken', 'token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** Removes credential-bearing query parameters before a URL reaches a log line. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (/^(access_token|token|os_password|password)$/i.test(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** pino-http middleware: one line per request with id, method, path, status and time; no headers logged. */
export function createHttpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers[REQUEST_ID_HEADER];
      const id = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel(_req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      return 'info';
    },
    // Our serializers read the raw request and response (wrapSerializers: false): pino-http binds the request
    // to a child logger on every request, and the standard serializer would first copy all headers.
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.originalUrl ?? req.url ?? ''),
        remoteAddress: req.socket?.remoteAddress,
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    wrapSerializers: false,
  });
}
