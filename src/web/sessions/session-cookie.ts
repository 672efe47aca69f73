import { hash, randomBytes } from 'node:crypto';

/** The cookie's name, as the tracker host calls it (clients written for it read it from the login answer). */
export const SESSION_COOKIE = 'JSESSIONID';

/** A new session id: 32 random bytes, 43 URL-safe characters. Sent once in the cookie, never stored. */
export function generateSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps and looks sessions up by (so a leaked table grants no session). */
export function hashSessionId(id: string): string {
  return hash('sha256', id, 'hex');
}

const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session id of a `Cookie` header, or undefined. Only ids of the shape we issue are returned, so
 * garbage never reaches the database. Of several `JSESSIONID` cookies (one per path) the first well-formed wins.
 */
export function readSessionCookie(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader || cookieHeader.length > 16_384) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (ID_SHAPE.test(value)) return value;
  }
  return undefined;
}

export interface CookieScope {
  /** Context path of BASE_URL (`''` or `/wiki`): the cookie is sent only below it. */
  contextPath: string;
  /** BASE_URL is https: the cookie never travels over plain http. */
  secure: boolean;
}

function attributes(scope: CookieScope): string {
  return `; Path=${scope.contextPath || '/'}; HttpOnly; SameSite=Strict${scope.secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` value that starts a session. No Max-Age: the browser drops it when closed; the server ends it earlier. */
export function sessionCookie(id: string, scope: CookieScope): string {
  return `${SESSION_COOKIE}=${id}${attributes(scope)}`;
}

/** `Set-Cookie` value that removes the cookie (sign-out, or a session the server no longer knows). */
export function clearedSessionCookie(scope: CookieScope): string {
  return `${SESSION_COOKIE}=${attributes(scope)}; Max-Age=0`;
}
