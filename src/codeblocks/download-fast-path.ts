// The download fast path: E1 and `/code` cache hits answered in the HTTP server's request listener, before
// Express (docs/performance.md, "The download fast path"). A fleet fetching the same blocks spends most of a
// request's CPU in Express's router layers; a hit needs none of them. The listener has run the request
// pipeline (authentication, the input boundary, …) before `answer`; only a request whose every lookup is a hit
// of the caches the Express route uses is answered here, with the same answer; anything else goes to Express.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerCachedHit, type FastPath, type FastPathClaim } from '../platform/http/fast-path.ts';
import type { CodeblocksService } from './download.service.ts';
import { peekParsedDownload } from './download.schemas.ts';
import { CONTENT_TYPES } from './error-render.ts';
import { PATHS, REST_BASE } from './generation.ts';

export interface DownloadFastPathDeps {
  /** The context path of BASE_URL ('' or e.g. `/wiki`). */
  contextPath: string;
  codeblocks: CodeblocksService;
}

export class DownloadFastPath implements FastPath {
  answered = 0;
  /** Full path (context path included) → the route template Express would label it with. */
  private readonly routes = new Map<string, FastPathClaim>();

  constructor(private readonly deps: DownloadFastPathDeps) {
    for (const path of [PATHS.downloadCode, PATHS.code]) this.routes.set(deps.contextPath + REST_BASE + path, { template: REST_BASE + path });
  }

  /**
   * An E1 or `/code` GET or HEAD with a query, at exactly the registered path: any other spelling Express would
   * also match (case, a trailing slash) goes through Express.
   */
  claim(req: IncomingMessage): FastPathClaim | undefined {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    return q < 0 ? undefined : this.routes.get(url.slice(0, q));
  }

  /** Answers when the parsed query and the block text (stored only after this user's view check passed) are cache hits. */
  answer(req: IncomingMessage, res: ServerResponse, { template }: FastPathClaim): boolean {
    const user = req.user;
    if (user === undefined) return false;
    const url = req.url ?? '';
    let parsed, hit;
    try {
      parsed = peekParsedDownload(url.slice(url.indexOf('?') + 1));
      if (parsed === undefined) return false;
      hit = this.deps.codeblocks.peekCachedDownload(user, parsed.params);
      if (hit === undefined) return false;
    } catch {
      // Whatever went wrong, Express meets it again and answers it in the API's error shape.
      return false;
    }
    // Every lookup hit: count them as the Express route would have, then answer as it does.
    this.answered++;
    answerCachedHit(req, res, template, [parsed, hit], hit.body, CONTENT_TYPES.text);
    return true;
  }
}
