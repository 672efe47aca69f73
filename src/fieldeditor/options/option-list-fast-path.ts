// The option-list fast path: U4/U9 and C1 cache hits answered in the HTTP server's request listener, before
// Express (docs/performance.md, "The option-list fast path"). An option editor, and every script that reads a list
// before it writes, reads the same lists again and again; once the credential, the grant and the list are
// cached, Express's router layers are most of such a request's CPU. The listener has run the request pipeline
// (authentication, the input boundary, …) before `answer`; only a request whose grant decision and list are
// hits of the caches the Express route uses is answered here, with the same answer; anything else goes to Express.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerCachedHit, type FastPath, type FastPathClaim } from '../../platform/http/fast-path.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import type { OptionsService } from './options.service.ts';
import { CHILDREN_PATH, OPTIONS_PATH } from './options.paths.ts';

export interface OptionListFastPathDeps {
  /** The context path of BASE_URL ('' or e.g. `/wiki`). */
  contextPath: string;
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
  /** The route template Express would label it with (the registered path without the context path). */
  template: string;
}

/** A list request: its route and the path segments its pattern captured (field, context, parent option). */
interface ListClaim extends FastPathClaim {
  child: boolean;
  m: RegExpExecArray;
}

export class OptionListFastPath implements FastPath<ListClaim> {
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
        this.routes.push({ pattern: new RegExp(`^${source}$`), child, template });
      }
    }
  }

  /** A GET or HEAD of an option or child-option list, without a query (one goes through Express's boundary; these lists take none). */
  claim(req: IncomingMessage): ListClaim | undefined {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const url = req.url ?? '';
    if (!url.startsWith(this.prefix) || !url.endsWith('options') || url.includes('?')) return undefined;
    for (const route of this.routes) {
      const m = route.pattern.exec(url);
      if (m) return { template: route.template, child: route.child, m };
    }
    return undefined;
  }

  /** Answers when the caller's grant decision and the list are cache hits. */
  answer(req: IncomingMessage, res: ServerResponse, { template, child, m }: ListClaim): boolean {
    const user = req.user;
    if (user === undefined) return false;
    let grant, list;
    try {
      // The ids as the Express route parses them; a bad id throws, and Express answers its 400.
      const ids = parseScopeIds(m[1]!, m[2]!);
      const parentId = child ? parseOptionId(m[3]!, 'optionId') : null;
      grant = this.deps.access.peekReadable(user, ids);
      if (grant === undefined) return false;
      const { field, context } = grant.value;
      list = this.deps.options.peekCachedList({ field, context, parentId });
      if (list === undefined) return false;
    } catch {
      return false;
    }
    // Every lookup hit: count them as the Express route would have, then answer as it does.
    this.answered++;
    answerCachedHit(req, res, template, [grant, list], list.value, JSON_TYPE);
    return true;
  }
}
