// One declaration per endpoint: its documentation (method, path, who may call it, the versions it exists
// under, request and response schemas) and its handler in one object. `buildRouter` registers the routes
// with the guards their declared access and versions call for, and the API documents are assembled from
// the same objects (src/platform/openapi/document.ts), so the router, the guard and the document cannot
// disagree. See docs/openapi.md.
import { Router, type Request, type RequestHandler, type Response, type RouterOptions } from 'express';
import type { Access, OperationDoc, VersionRule } from '../openapi/operation.ts';
import { requireAdmin, requireSession, requireSysadmin, requireUser } from '../auth/guards.ts';

/**
 * An operation and the code that answers it. `handle` stays thin: parse with the declared schemas, call one
 * service, answer. It may throw or reject; the API's error handler renders the error. `D` is what the
 * router hands every handler (the feature's services and settings), so declarations are plain data at
 * module level and the documents are built without any service.
 */
export interface Endpoint<D = unknown> extends OperationDoc {
  handle: (req: Request, res: Response, deps: D) => unknown;
}

/** How one router of endpoints is mounted. */
export interface RouterSpec {
  /** Path the router is mounted at, when the endpoints' paths include it (the host's full paths); default ''. */
  mountedAt?: string;
  /** The version of the base path this router serves, and the error of an endpoint that does not exist under it. */
  version?: { id: string; unavailable: () => Error };
  /**
   * Prefixes (below `mountedAt`) closed to whoever the endpoints under them refuse: any request there, also to
   * a path or method no endpoint has, meets their common guard first (an anonymous caller gets 401 rather than
   * 404). Every endpoint under a prefix must declare the same access; their common version rule, if they
   * share one, is checked there too.
   */
  closedPrefixes?: readonly string[];
  /** Express router options (`strict`, `caseSensitive`). */
  router?: RouterOptions;
  /** The guards of the access kinds that depend on settings (`metrics`: the metrics token). */
  guards?: Partial<Record<ConfiguredAccess, RequestHandler>>;
}

/** Access kinds whose guard the router is given (RouterSpec.guards), since it needs a setting. */
type ConfiguredAccess = 'metrics';

const ACCESS_GUARDS: Record<Exclude<Access, ConfiguredAccess>, RequestHandler | undefined> = {
  anyone: undefined,
  user: requireUser,
  session: requireSession,
  admin: requireAdmin,
  sysadmin: requireSysadmin,
};

function accessGuard(access: Access, spec: RouterSpec, what: string): RequestHandler | undefined {
  if (access !== 'metrics') return ACCESS_GUARDS[access];
  const guard = spec.guards?.[access];
  if (!guard) throw new Error(`${what} declares the access ${access}, but its router has no guard for it`);
  return guard;
}

/** An OpenAPI path template as an Express path (`/user/{id}` → `/user/:id`). */
export const toExpressPath = (template: string): string => template.replace(/\{([A-Za-z_$][\w$]*)\}/g, ':$1');

/** The refusal of an endpoint that does not exist under the version this router serves (none when it does). */
function versionGuard(versions: VersionRule | undefined, spec: RouterSpec, what: string): RequestHandler | undefined {
  if (!versions) return undefined;
  const { version } = spec;
  if (!version) throw new Error(`${what} declares versions, but its router serves no version`);
  if (versions.under.includes(version.id)) return undefined;
  return (_req, _res, next) => next(version.unavailable());
}

/** The guards of one access and version rule, in the order the rule says. */
function guardsOf(access: Access, versions: VersionRule | undefined, spec: RouterSpec, what: string): RequestHandler[] {
  const guard = accessGuard(access, spec, what);
  const refuse = versionGuard(versions, spec, what);
  const ordered = versions?.beforeAccess ? [refuse, guard] : [guard, refuse];
  return ordered.filter((g): g is RequestHandler => g !== undefined);
}

const describe = (e: OperationDoc) => `${e.method.toUpperCase()} ${e.path}`;
const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Literal segments before parameters: of two routes that can both match a request (`/options/sort` and
 * `/options/:optionId`), the one with a literal where the other has a parameter is registered first. The
 * order compares the paths' shapes (literal or parameter, segment by segment, shorter first); routes of one
 * shape keep their declared order (the sort is stable). Routes that cannot match the same request may move,
 * which changes nothing.
 */
function specificityOrder(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith(':') ? 1 : 0;
    const pb = sb[i]!.startsWith(':') ? 1 : 0;
    if (pa !== pb) return pa - pb;
  }
  return sa.length - sb.length;
}

/**
 * The router of a list of endpoints: the closed prefixes' guards first, then every endpoint's route with the
 * guard of its declared access (and version rule) and its handler. Throws when the declarations contradict
 * each other (a path outside `mountedAt`, a closed prefix without endpoints or with differing rules).
 */
export function buildRouter<D>(endpoints: readonly Endpoint<D>[], deps: D, spec: RouterSpec = {}): Router {
  const r = Router(spec.router);
  const mountedAt = spec.mountedAt ?? '';
  const relative = (e: Endpoint<D>) => {
    if (!e.path.startsWith(mountedAt)) throw new Error(`${describe(e)} is not under ${mountedAt}`);
    return toExpressPath(e.path.slice(mountedAt.length)) || '/';
  };
  const routes = endpoints.map((e) => ({ e, path: relative(e) }));

  // A closed prefix's guard: the access every endpoint under it declares, and their version rule when they all
  // share one (otherwise each route keeps its own version check, after the prefix's access check).
  const closed = (spec.closedPrefixes ?? []).map((prefix) => {
    const under = routes.filter((x) => isUnder(x.path, prefix)).map((x) => x.e);
    const first = under[0];
    if (!first) throw new Error(`closed prefix ${prefix} has no endpoint`);
    const other = under.find((e) => e.access !== first.access);
    if (other) throw new Error(`${describe(other)} and ${describe(first)} share the closed prefix ${prefix} but not their access`);
    const rule = JSON.stringify(first.versions);
    const versions = under.every((e) => JSON.stringify(e.versions) === rule) ? first.versions : undefined;
    const guards = guardsOf(first.access, versions, spec, `prefix ${prefix}`);
    if (guards.length > 0) r.use(prefix, ...guards);
    return { prefix, versions };
  });

  const ordered = routes.map((x, i) => ({ ...x, i })).sort((a, b) => specificityOrder(a.path, b.path) || a.i - b.i);
  for (const { e, path } of ordered) {
    const what = describe(e);
    const area = closed.find((c) => isUnder(path, c.prefix));
    let guards: RequestHandler[];
    if (!area) guards = guardsOf(e.access, e.versions, spec, what);
    else if (area.versions || !e.versions) guards = []; // the prefix's guard has run
    else if (e.versions.beforeAccess) throw new Error(`${what} checks its version before the access, which its closed prefix ${area.prefix} checks first`);
    else guards = [versionGuard(e.versions, spec, what)].filter((g): g is RequestHandler => g !== undefined);
    const handler: RequestHandler = (req, res) => e.handle(req, res, deps);
    r[e.method](path, ...guards, handler);
  }
  return r;
}
