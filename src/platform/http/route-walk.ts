import type { Express } from 'express';

/** One registered route of the app, its path written as an OpenAPI template (`/user/{id}`). */
export interface RegisteredRoute {
  /** Upper-case methods, without the `HEAD` Express adds to every `GET`. `*` for `.all()`. */
  methods: string[];
  /** Full path from the app's root (context path included), as an OpenAPI path template. */
  path: string;
  /** The route object Express puts on `req.route` when it matches; key of the metrics' route labels. */
  route: object;
}

// Express 5 (router 2.x) keeps every layer's path as written (`rawPath`), the route of a route layer and the
// stack of a mounted router; `listRoutes()` reads the same fields, but does not hand out the route objects.
interface Layer {
  rawPath?: string | RegExp | (string | RegExp)[];
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Express path syntax (`:name`, `{/optional}`, `*splat`) as an OpenAPI template (`{name}`). */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/[:*]([A-Za-z_$][\w$]*)/g, '{$1}');
}

/**
 * Every route of the app with its full path, found by walking the routers as Express mounted them. Routes
 * under a regular-expression path (none today) are skipped: they have no template to show.
 */
export function listRegisteredRoutes(app: Express): RegisteredRoute[] {
  const found: RegisteredRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const paths = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath ?? '/'];
      for (const raw of paths) {
        if (typeof raw !== 'string') continue;
        const path = raw === '/' ? prefix : prefix + toOpenApiPath(raw);
        if (layer.route) {
          const methods = Object.keys(layer.route.methods)
            .map((m) => (m === '_all' ? '*' : m.toUpperCase()))
            .filter((m) => m !== 'HEAD' || !layer.route!.methods.get);
          found.push({ methods, path: path || '/', route: layer.route });
        } else if (Array.isArray(layer.handle.stack)) {
          walk(layer.handle.stack, path);
        }
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found;
}
