// The option-write fast path: U5/U10/C2 (create), U6/U11/C3 (rename, disable) and U8/U13/C5 (move) handed to the
// option service in the HTTP server's request listener, before Express (docs/performance.md, "Single option
// writes under one list lock"). Express's router walk and response helpers were about 0.13 ms of the server's
// time per request, a tenth of such a write's. The listener has run the whole request pipeline (authentication,
// read-only tokens, the input boundary with the JSON body, the limits) before `answer`, so what is left is what
// the Express route does: the `/user` prefix's guard (a signed-in user), the path ids, the same service call,
// and the answer. Anything else goes to Express: a request without a user (its 401), an id the pattern or the
// parser refuses (its 400), and every error the write answers, which Express renders in the API's format.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastPath, FastPathClaim, ToExpress } from '../../platform/http/fast-path.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import type { OptionsService } from './options.service.ts';
import type { ListPath } from './option-scope.ts';
import { CHILDREN_PATH, OPTIONS_PATH } from './options.paths.ts';

export interface OptionWriteFastPathDeps {
  /** The context path of BASE_URL ('' or e.g. `/wiki`). */
  contextPath: string;
  /** The field editor's base paths (without the context path), e.g. `/rest/trackercustomfieldeditorplugin/1`. */
  bases: readonly string[];
  options: OptionsService;
}

type Write = 'create' | 'update' | 'move';

/** A path segment as Express would match it and the ids parse it; option ids are digits only (`sort` is a route of its own). */
const SEGMENT = '([A-Za-z0-9_]{1,40})';
const OPTION_ID = '([0-9]{1,20})';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface WriteRoute {
  method: 'POST' | 'PUT';
  pattern: RegExp;
  write: Write;
  child: boolean;
  /** The route template Express would label it with (the registered path without the context path). */
  template: string;
}

interface WriteClaim extends FastPathClaim {
  write: Write;
  child: boolean;
  m: RegExpExecArray;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export class OptionWriteFastPath implements FastPath<WriteClaim> {
  answered = 0;
  private readonly prefix: string;
  private readonly routes: WriteRoute[] = [];

  constructor(private readonly deps: OptionWriteFastPathDeps) {
    this.prefix = `${deps.contextPath}/rest/`;
    for (const base of deps.bases) {
      for (const child of [false, true]) {
        const list = base + (child ? CHILDREN_PATH : OPTIONS_PATH);
        const item = `${list}/:${child ? 'childOptionId' : 'optionId'}`;
        const add = (method: WriteRoute['method'], template: string, write: Write) => {
          const source = escapeRegExp(deps.contextPath + template)
            .replace(/:(optionId|childOptionId)/g, OPTION_ID)
            .replace(/:[A-Za-z]+/g, SEGMENT);
          this.routes.push({ method, pattern: new RegExp(`^${source}$`), write, child, template });
        };
        add('POST', list, 'create');
        add('PUT', item, 'update');
        add('POST', `${item}/move`, 'move');
      }
    }
  }

  /** A create, rename or move of an option or child option, without a query. */
  claim(req: IncomingMessage): WriteClaim | undefined {
    const method = req.method;
    if (method !== 'POST' && method !== 'PUT') return undefined;
    const url = req.url ?? '';
    if (!url.startsWith(this.prefix) || url.includes('?')) return undefined;
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(url);
      if (m) return { template: route.template, write: route.write, child: route.child, m };
    }
    return undefined;
  }

  /** Starts the write and answers true, or false (nothing written, nothing sent) for Express to answer. */
  answer(req: IncomingMessage, res: ServerResponse, { template, write, child, m }: WriteClaim, toExpress: ToExpress): boolean {
    const user = req.user;
    if (user === undefined) return false;
    let at: ListPath;
    let id = 0;
    try {
      // The ids as the Express route parses them, in path order; a bad one throws, and Express answers its 400.
      at = { ids: parseScopeIds(m[1]!, m[2]!), parentId: child ? parseOptionId(m[3]!, 'optionId') : null };
      if (write !== 'create') id = parseOptionId(m[child ? 4 : 3]!, child ? 'childOptionId' : 'optionId');
    } catch {
      return false;
    }
    this.answered++;
    req.routeTemplate = template;
    const body = (req as { body?: unknown }).body ?? {};
    const { options } = this.deps;
    const done = write === 'create' ? options.create(user, at, body) : write === 'update' ? options.update(user, at, id, body) : options.move(user, at, id, body);
    done.then(
      (result) => {
        // What the route's `res.json` sends (no ETag: the app has them off).
        const json = JSON.stringify(result);
        res.statusCode = 200;
        res.setHeader('Content-Type', JSON_TYPE);
        res.setHeader('Content-Length', Buffer.byteLength(json));
        res.end(json);
      },
      (err: unknown) => toExpress(err),
    );
    return true;
  }
}
