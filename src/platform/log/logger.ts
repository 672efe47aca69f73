import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** What a request looks like in a log line: never its headers or body. */
function serializeRequest(req: IncomingMessage & { id?: unknown; originalUrl?: string }) {
  return {
    id: req.id,
    method: req.method,
    url: redactUrl(req.originalUrl ?? req.url ?? ''),
    remoteAddress: req.socket?.remoteAddress,
  };
}

function serializeResponse(res: ServerResponse) {
  return { statusCode: res.statusCode };
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      // `req` and `res` anywhere in a log call go through our serializers, which copy no header and no body.
      serializers: { req: serializeRequest, res: serializeResponse, err: pino.stdSerializers.err },
      // Belt and braces: a stray `log.info({ headers })` or `log.info({ password })` must not leak either.
      // No wildcard-first paths: those make pino run the slow redacting stringifier on every binding.
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
