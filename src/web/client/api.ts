/**
 * Every call of the interface goes through here: same origin, the session cookie, and the hosts' XSRF header
 * (the server refuses state-changing cookie requests without it). Errors carry the API's own message, read
 * from whichever of the three error shapes the API uses.
 */
export const contextPath = document.body.dataset.contextPath ?? '';
/** The absolute base URL as the browser sees it, for curl lines. */
export const baseUrl = `${location.origin}${contextPath}`;
export const FE = '/rest/trackercustomfieldeditorplugin/1';

import { ApiError } from './api-error.ts';
import { plainWords } from './error-words.ts';

export { ApiError };

let onUnauthorized: () => void = () => undefined;
/** Called when a request answers 401 (the session ended): the app shows the sign-in form. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

type Json = Record<string, unknown>;

/** The human message of an error body of the tracker host, the wiki host or the field editor. */
export function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as Json;
    const parts: string[] = [];
    if (Array.isArray(b.errorMessages)) parts.push(...b.errorMessages.map(String));
    if (Array.isArray(b.errors)) {
      for (const e of b.errors as Json[]) if (e && typeof e.message === 'string') parts.push(e.message);
    } else if (b.errors && typeof b.errors === 'object') {
      for (const [k, v] of Object.entries(b.errors as Json)) parts.push(`${k}: ${String(v)}`);
    }
    if (parts.length > 0) return parts.join(' ');
    if (typeof b.message === 'string') return b.message;
    if (b.data && typeof b.data === 'object' && Array.isArray((b.data as Json).errors)) {
      const errs = ((b.data as Json).errors as Json[]).map((e) => String((e.message as Json | undefined)?.translation ?? ''));
      if (errs.some(Boolean)) return errs.join(' ');
    }
  }
  if (typeof body === 'string' && body.trim() !== '') return body.trim();
  return `The server answered ${status}.`;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, opts: { quiet401?: boolean } = {}): Promise<T> {
  // X-Requested-With: a 401 then comes without a Basic challenge, which would open the browser's own login dialog.
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Atlassian-Token': 'no-check', 'X-Requested-With': 'XMLHttpRequest' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(contextPath + path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'The server cannot be reached.');
  }
  const text = await res.text();
  let data: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      /* keep the text */
    }
  }
  if (!res.ok) {
    if (res.status === 401 && !opts.quiet401) {
      delete document.body.dataset.signedIn;
      onUnauthorized();
    }
    throw new ApiError(res.status, messageOf(data, res.status), data, res.headers.get('X-Seraph-LoginReason') ?? undefined);
  }
  return data as T;
}

/** Plain text of an endpoint (a code block), or its error message. */
export async function apiText(path: string): Promise<string> {
  const res = await fetch(contextPath + path, { credentials: 'same-origin', headers: { Accept: 'text/plain', 'X-Requested-With': 'XMLHttpRequest' } });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text.trim() || `The server answered ${res.status}.`);
  return text;
}

/** What the interface shows of a failure: a short sentence in plain words (error-words.ts), never the wire's wording. */
export const errorText = (e: unknown): string => plainWords(e);

/** Query string from the defined members. */
export function qs(params: Record<string, string | number | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}
