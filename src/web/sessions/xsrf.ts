/**
 * The hosts' XSRF convention: a state-changing request that is authenticated only by the session cookie must
 * carry `X-Atlassian-Token: no-check`. A browser sends that header only from our own scripts (another site's
 * form cannot set it, and a cross-origin script needs a CORS preflight we never grant), so a forged request
 * from another site is refused. Basic and Bearer requests are never affected: another site cannot make a
 * browser add an Authorization header on its own.
 */
export const XSRF_HEADER = 'x-atlassian-token';
export const XSRF_VALUE = 'no-check';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True when a request authenticated by the session cookie may go on. */
export function passesXsrfCheck(method: string, headerValue: string | string[] | undefined): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const value = Array.isArray(headerValue) ? headerValue[0] : headerValue;
  return value !== undefined && value.trim().toLowerCase() === XSRF_VALUE;
}
