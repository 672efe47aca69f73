// A harness for the fast-path tests (test/integration/codeblocks/fast-path.test.ts,
// test/integration/fieldeditor-options/option-list-fast-path.test.ts): two HTTP servers on one set of services,
// one with the fast paths and one without, logging to one captured stream, and raw requests whose answers
// (status, headers in order, body bytes), request lines and metrics can be compared between the two.
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { createApp, createRequestListener, type App } from '../../src/app.ts';
import { createHttpServer } from '../../src/server.ts';
import { createLogger } from '../../src/platform/log/logger.ts';
import type { TestApp } from './test-app.ts';

export interface Answer {
  status: number;
  /** Raw header names and values in the order sent. */
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One raw request on a fresh connection (no agent: nothing the client library adds or keeps). */
export function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Header list for comparison: Date and X-Request-Id values left out (they differ per request). */
export const comparable = (a: Answer) => {
  const out: string[] = [];
  for (let i = 0; i < a.rawHeaders.length; i += 2) {
    const name = a.rawHeaders[i]!;
    const lower = name.toLowerCase();
    out.push(lower === 'date' || lower === 'x-request-id' ? `${name}: *` : `${name}: ${a.rawHeaders[i + 1]}`);
  }
  return out;
};

function listen(listener: http.RequestListener): Promise<http.Server> {
  const server = createHttpServer(listener);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (s: http.Server) => (s.address() as AddressInfo).port;

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

export interface FastPathPair {
  /** The app behind the fast paths (its `fastPaths`, by feature name, count what they answered). */
  app: App;
  fastPort: number;
  slowPort: number;
  /** The request line logged for a request id (waits a little: lines are written after the answer). */
  lineOf(id: string): Promise<Record<string, unknown>>;
  close(): void;
}

/** Starts the two servers on `t`'s services (same caches, same data). */
export async function startFastPathPair(t: TestApp): Promise<FastPathPair> {
  const log = captureLogger();
  const services = { ...t.services, log: log.logger };
  const slow = await listen(createRequestListener(services, createApp(services), false));
  const app = createApp(services);
  const fast = await listen(createRequestListener(services, app, true));
  return {
    app,
    fastPort: portOf(fast),
    slowPort: portOf(slow),
    async lineOf(id) {
      for (let i = 0; i < 50; i++) {
        const line = log.lines.find((l) => (l['req'] as { id?: string } | undefined)?.id === id);
        if (line) return line;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no log line for request ${id}`);
    },
    close() {
      fast.close();
      slow.close();
    },
  };
}

/**
 * Sends one request to both servers after warming every cache on the Express server (twice), and checks that
 * the fast path answered it (or not, per `fast`) with exactly Express's answer: status, headers in order,
 * body bytes, and the request id header. Returns the fast server's answer.
 */
export async function expectSameAnswer(
  pair: FastPathPair,
  answered: () => number,
  c: { method?: 'GET' | 'HEAD'; url: string; headers: Record<string, string>; fast: boolean; status: number },
): Promise<Answer> {
  const method = c.method ?? 'GET';
  await send(pair.slowPort, method, c.url, c.headers);
  await send(pair.slowPort, method, c.url, c.headers);
  const before = answered();
  const fast = await send(pair.fastPort, method, c.url, c.headers);
  expect(answered() - before, 'answered by the fast path').toBe(c.fast ? 1 : 0);
  const slow = await send(pair.slowPort, method, c.url, c.headers);
  expect(slow.status).toBe(c.status);
  expect(fast.status).toBe(slow.status);
  expect(comparable(fast)).toEqual(comparable(slow));
  expect(fast.body.equals(slow.body)).toBe(true);
  expect(fast.headers['x-request-id']).toMatch(c.headers['X-Request-Id'] === undefined ? /^[0-9a-f-]{36}$/ : new RegExp(`^${c.headers['X-Request-Id']}$`));
  return fast;
}

/** One row of a fast-path test's matrix. */
export interface FastPathCase {
  name: string;
  method?: 'GET' | 'HEAD';
  url: () => string;
  auth?: () => string | undefined;
  headers?: Record<string, string>;
  /** Sends If-None-Match with the tag a plain request of the same URL gets (`W/`: in the weak form). */
  matchTag?: '' | 'W/';
  /** The Content-Encoding expected (none when unset). */
  encoding?: 'gzip' | 'br';
  /** Whether the fast path answers it (once warm). */
  fast: boolean;
  status: number;
}

/**
 * Runs one case: its headers (with the tag a plain GET as `tagAuth` gets, for `matchTag`), the same answer from
 * both servers, the expected coding, and a body on every 200 to a GET. Returns the fast server's answer.
 */
export async function expectCase(pair: FastPathPair, answered: () => number, c: FastPathCase, tagAuth: string): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  const auth = c.auth?.();
  if (auth !== undefined) headers['Authorization'] = auth;
  if (c.matchTag !== undefined) {
    const plain = await send(pair.slowPort, 'GET', c.url(), { ...c.headers, Authorization: tagAuth });
    expect(plain.status).toBe(200);
    headers['If-None-Match'] = `"other", ${c.matchTag}${plain.headers['etag'] as string}`;
  }
  const fast = await expectSameAnswer(pair, answered, { method: c.method, url: c.url(), headers, fast: c.fast, status: c.status });
  expect(fast.headers['content-encoding']).toBe(c.encoding);
  if (c.status === 200 && (c.method ?? 'GET') === 'GET') expect(fast.body.length).toBeGreaterThan(0);
  return fast;
}

/** The shape of a request line with the values that differ per request (time, duration, id) left out. */
export const lineShape = (l: Record<string, unknown>) => ({ ...l, time: typeof l['time'], responseTime: typeof l['responseTime'], req: { ...(l['req'] as object), id: '*' } });

/** The request-duration series of GETs answered 2xx whose route label contains `routePart`: [route, count]. */
export async function routeSeries(t: TestApp, metricsToken: string, routePart: string): Promise<(readonly [string, number])[]> {
  const res = await t.http.get(`${t.config.contextPath}/metrics`).set('Authorization', `Bearer ${metricsToken}`).expect(200);
  const m = /addon_pair_http_request_duration_seconds_count\{route="([^"]+)",method="GET",status_class="2xx"\} (\d+)/g;
  return [...res.text.matchAll(m)].filter((x) => x[1]!.includes(routePart)).map((x) => [x[1]!, Number(x[2])] as const);
}
