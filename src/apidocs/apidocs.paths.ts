/** Where the API descriptions and the explorer are served (under the context path). */
export const DOCUMENTS_BASE = '/openapi';
export const DOCUMENT_PATHS = {
  host: `${DOCUMENTS_BASE}/host.json`,
  codeblocks: `${DOCUMENTS_BASE}/codeblocks.json`,
} as const;

/** The explorer page (Swagger UI); its assets live below it. */
export const EXPLORER_PATH = '/docs';
