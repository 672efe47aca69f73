// The option-list fast path: U4/U9 and C1 cache hits answered in the HTTP server's request listener, before
// Express (docs/architecture.md, "The fast paths"). An option editor, and every script that reads a list
// before it writes, reads the same lists again and again; once the credential, the grant and the list are
// cached, Express's router layers are most of such a request's CPU. Only a request whose every step is a hit
// of the caches the Express route uses is answered here, with the same answer, log line and metrics; anything
// else is handed to Express untouched (nothing read from the request, nothing written).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerCachedHit, peekCredential, routeObserver, type FastPath, type FastPathDeps } from '../../platform/http/fast-path.ts';
import type { RequestObserver } from '../../platform/log/request-logger.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import type { OptionsService } from './options.service.ts';
import { CHILDREN_PATH, OPTIONS_PATH } from './options.paths.ts';

export interface OptionListFastPathDeps extends FastPathDeps {
  /** The field editor's base paths (without the context path), e.g. `/rest/trackercustomfieldeditorplugin/1`. */
  bases: readonly string[];
  access: FieldAccess;
  options: OptionsService;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A path segment taken as it is: Express would decode `%` escapes and match other spellings (case, a trailing
 * slash); such requests go through Express. Field ids (`10000`, `customfield_10000`), `default` and option ids
 * are all of these characters.
 */
const SEGMENT = '([A-Za-z0-9_]{1,40})';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface ListRoute {
  pattern: RegExp;
  child: boolean;
  observe: RequestObserver<IncomingMessage, ServerResponse> | undefined;
}

export class OptionListFastPath implements FastPath {
  answered = 0;
  /** The shared beginning of every answered path (context path and `/rest/`), checked before any pattern. */
  private readonly prefix: string;
  private readonly routes: ListRoute[] = [];

  constructor(private readonly deps: OptionListFastPathDeps) {
    this.prefix = `${deps.contextPath}/rest/`;
    for (const base of deps.bases) {
      for (const child of [false, true]) {
        // The template of the metrics' route label: the registered route's path without the context path.
        const template = base + (child ? CHILDREN_PATH : OPTIONS_PATH);
        const source = escapeRegExp(deps.contextPath + template).replace(/:[A-Za-z]+/g, SEGMENT);
        this.routes.push({ pattern: new RegExp(`^${source}$`), child, observe: routeObserver(deps.metrics, template) });
      }
    }
  }

  /**
   * Answers `req` when it is a GET or HEAD of an option or child-option list, without a query, whose credential
   * (Basic or Bearer), grant decision and list are all cache hits usable now (the change feed live); returns
   * false, having read and written nothing, otherwise.
   */
  tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    // A query goes through Express's input boundary; these lists take none.
    if (!url.startsWith(this.prefix) || !url.endsWith('options') || url.includes('?')) return false;
    if (req.headers.authorization === undefined) return false;
    const matched = this.match(url);
    if (matched === undefined) return false;
    const { route, m } = matched;
    let credential, grant, list;
    try {
      credential = peekCredential(this.deps.authenticator, req);
      if (credential === undefined) return false;
      // The ids as the Express route parses them; a bad id throws, and Express answers its 400.
      const ids = parseScopeIds(m[1]!, m[2]!);
      const parentId = route.child ? parseOptionId(m[3]!, 'optionId') : null;
      grant = this.deps.access.peekReadable(credential.value, ids);
      if (grant === undefined) return false;
      const { field, context } = grant.value;
      list = this.deps.options.peekCachedList({ field, context, parentId });
      if (list === undefined) return false;
    } catch {
      return false;
    }
    // Every lookup hit: count them as the Express route would have, then answer as it does.
    this.answered++;
    answerCachedHit(this.deps, route.observe, [credential, grant, list], req, res, list.value, JSON_TYPE);
    return true;
  }

  /** The list route `url` names, with the path segments its pattern captured. */
  private match(url: string): { route: ListRoute; m: RegExpExecArray } | undefined {
    for (const route of this.routes) {
      const m = route.pattern.exec(url);
      if (m) return { route, m };
    }
    return undefined;
  }
}
