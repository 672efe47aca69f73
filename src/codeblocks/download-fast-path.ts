// The download fast path: E1 and `/code` cache hits answered in the HTTP server's request listener, before
// Express (docs/architecture.md, "The download fast path"). A fleet fetching the same blocks spends most of a
// request's CPU in Express's router layers; a hit needs none of them. Only a request whose every step is a
// hit of the caches the Express route uses is answered here, with the same answer, log line and metrics;
// anything else is handed to Express untouched (nothing read from the request, nothing written).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { answerCachedHit, peekCredential, routeObserver, type FastPath, type FastPathDeps } from '../platform/http/fast-path.ts';
import { firstUnstorable } from '../platform/http/storable-text.ts';
import type { RequestObserver } from '../platform/log/request-logger.ts';
import type { CodeblocksService } from './download.service.ts';
import { peekParsedDownload } from './download.schemas.ts';
import { CONTENT_TYPES } from './error-render.ts';
import { PATHS, REST_BASE } from './generation.ts';

export interface DownloadFastPathDeps extends FastPathDeps {
  codeblocks: CodeblocksService;
}

/** authenticate.ts refuses a token in the query (401) before anything else. */
const QUERY_TOKEN = /(^|&)access_token=/i;

/**
 * What the input boundary (input-boundary.ts) checks of a query: every name and value, as Express's simple
 * query parser gives them, is storable text. Only asked when the URL has a `%` (as there).
 */
function storableQuery(raw: string): boolean {
  for (const [key, value] of Object.entries(parseQueryString(raw))) {
    if (firstUnstorable(key) !== undefined) return false;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string' && firstUnstorable(v) !== undefined) return false;
    }
  }
  return true;
}

export class DownloadFastPath implements FastPath {
  answered = 0;
  /** Full path (context path included) → the request observer with the route template Express would use. */
  private readonly routes = new Map<string, RequestObserver<IncomingMessage, ServerResponse> | undefined>();

  constructor(private readonly deps: DownloadFastPathDeps) {
    for (const path of [PATHS.downloadCode, PATHS.code]) {
      // The template of the metrics' route label: the registered route's path without the context path.
      const template = REST_BASE + path;
      this.routes.set(deps.contextPath + template, routeObserver(deps.metrics, template));
    }
  }

  /**
   * Answers `req` when it is an E1 or `/code` GET or HEAD whose credential (Basic or Bearer), parsed query and
   * block text (stored only after this user's view check passed) are all cache hits usable now (the change
   * feed live); returns false, having read and written nothing, otherwise.
   */
  tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (q < 0) return false;
    // Exactly the registered path: any other spelling Express would also match (case, a trailing slash)
    // goes through Express.
    const path = url.slice(0, q);
    if (!this.routes.has(path)) return false;
    if (req.headers.authorization === undefined) return false;
    const raw = url.slice(q + 1);
    if (QUERY_TOKEN.test(raw)) return false;
    if (raw.indexOf('%') >= 0 && !storableQuery(raw)) return false;
    let credential, parsed, hit;
    try {
      credential = peekCredential(this.deps.authenticator, req);
      if (credential === undefined) return false;
      parsed = peekParsedDownload(raw);
      if (parsed === undefined) return false;
      hit = this.deps.codeblocks.peekCachedDownload(credential.value, parsed.params);
      if (hit === undefined) return false;
    } catch {
      // Whatever went wrong, Express meets it again and answers it in the API's error shape.
      return false;
    }
    // Every lookup hit: count them as the Express route would have, then answer as it does.
    this.answered++;
    answerCachedHit(this.deps, this.routes.get(path), [credential, parsed, hit], req, res, hit.body, CONTENT_TYPES.text);
    return true;
  }
}
