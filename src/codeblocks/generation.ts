// The three generations of the download interface (CODEBLOCKS_COMPAT). Everything that differs between
// them lives in this one table, so routes, renderers and redirects never compare version strings.
import type { Config } from '../config.ts';

export type GenerationId = Config['codeblocksCompat'];

export interface Generation {
  id: GenerationId;
  /** 5.0.0+: authentication is the host's job, so 401 bodies are the host's `status` shape. */
  hostAuthBodies: boolean;
  /**
   * `error` values of the app's own bodies. `tooManyRequests` (a rate limit or the failed-login limit, 429) and
   * `unavailable` (503: the password checks are too busy) are ours: the original had no such answers.
   */
  keys: { unauthorized: string; forbidden: string; error: string; tooManyRequests: string; unavailable: string };
  /** contentId generation and later: refined `500_ERROR_*_EXCEPTION` keys and `extraMessage` on 500. */
  refinedErrors: boolean;
  /** Wrapper of the list record: `content` (contentId, contentTitle, contentType …) or `page` (pageId, pageName …). */
  wrapper: 'content' | 'page';
  /** The content parameter the servlet's `pageid` is renamed to in a redirect. */
  contentParam: 'contentId' | 'pageId';
}

const UNDERSCORE_KEYS = {
  unauthorized: '401_UNAUTHORIZED',
  forbidden: '403_FORBIDDEN',
  error: '500_ERROR',
  tooManyRequests: '429_TOO_MANY_REQUESTS',
  unavailable: '503_SERVICE_UNAVAILABLE',
};
const SPACED_KEYS = {
  unauthorized: '401 UNAUTHORIZED',
  forbidden: '403 FORBIDDEN',
  error: '500 ERROR',
  tooManyRequests: '429 TOO MANY REQUESTS',
  unavailable: '503 SERVICE UNAVAILABLE',
};

const GENERATIONS: Record<GenerationId, Generation> = {
  '5': { id: '5', hostAuthBodies: true, keys: UNDERSCORE_KEYS, refinedErrors: true, wrapper: 'content', contentParam: 'contentId' },
  '4': { id: '4', hostAuthBodies: false, keys: UNDERSCORE_KEYS, refinedErrors: true, wrapper: 'content', contentParam: 'contentId' },
  '3.4': { id: '3.4', hostAuthBodies: false, keys: SPACED_KEYS, refinedErrors: false, wrapper: 'page', contentParam: 'pageId' },
};

export function generationOf(id: GenerationId): Generation {
  return GENERATIONS[id];
}

/** Fixed messages of the contract. */
export const MESSAGES = {
  unauthorized: 'no logged in user found',
  forbidden: (contentId: number | string) => `no read permission on page with id ${contentId}`,
  error: 'Did you provide valid URL-Parameters?',
  /** What the host's REST framework answers for an unauthenticated request (5.0.0+). */
  hostUnauthorized: 'Client must be authenticated to access this resource.',
} as const;

/** Paths under the context path. */
export const REST_BASE = '/rest/advancedcodeblocks/1';
/** Where the oldest generation's servlets live; only their redirects are mounted there. */
export const SERVLET_BASE = '/plugins/servlet';

export const PATHS = {
  downloadCode: '/download_code/plain_text',
  /** Target of the JSON list's `download` links; answers exactly like downloadCode. */
  code: '/code',
  listXml: '/download_list/xml',
  listJson: '/download_list/json',
  /** This server's own (not in the original add-on): the content of a space that holds code boxes. */
  contentList: '/content_list/json',
  servletCode: `${SERVLET_BASE}/advanced-codeblock-macro-downloadcode`,
  servletList: `${SERVLET_BASE}/advanced-codeblock-macro-downloadlist`,
} as const;
