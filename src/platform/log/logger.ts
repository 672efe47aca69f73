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
      // Belt and braces: the serializers below never copy these, but a stray `log.info({ req })` must not leak them.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          'headers.authorization',
          'password',
          '*.password',
          'rawToken',
          '*.rawToken',
        ],
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
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    wrapSerializers: true,
  });
}
