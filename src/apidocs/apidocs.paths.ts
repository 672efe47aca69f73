/** Where the API descriptions and the explorer are served (under the context path). */
export const DOCUMENTS_BASE = '/openapi';
export const DOCUMENT_PATHS = {
  host: `${DOCUMENTS_BASE}/host.json`,
  codeblocks: `${DOCUMENTS_BASE}/codeblocks.json`,
} as const;

/** The explorer page (Swagger UI); its assets live below it. */
export const EXPLORER_PATH = '/docs';

/**
 * Routes that are deliberately in no API description (the route-walk test skips them), each for a reason.
 * Static asset routes of a web interface belong here too.
 */
export const UNDOCUMENTED_ROUTES: readonly { path: string; why: string }[] = [
  { path: EXPLORER_PATH, why: 'the explorer: a web page and its assets, not an API' },
  { path: '/', why: 'the web interface: its page (assets are static files), not an API' },
];

/** True for a path at or below one of UNDOCUMENTED_ROUTES. */
export const isUndocumentedRoute = (path: string) =>
  UNDOCUMENTED_ROUTES.some((u) => path === u.path || (u.path !== '/' && path.startsWith(`${u.path}/`)));
