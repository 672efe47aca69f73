// The `ctx` handed to scenario setups and latency calls, plus header helpers.
import type { BenchContext, HttpOptions, HttpResponse } from './types.ts';

export function basic(username: string, password: string): string {
  return 'Basic ' + Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

export function bearer(token: string): string {
  return `Bearer ${token}`;
}

async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: HttpOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.auth) headers.authorization = options.auth;
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Leave it as text; the setup will report the status and body it got.
    }
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export function createContext(baseUrl: string, adminUsername: string, adminPassword: string, databaseUrl?: string): BenchContext {
  return {
    baseUrl,
    databaseUrl,
    adminUsername,
    adminPassword,
    adminAuth: basic(adminUsername, adminPassword),
    http: (method, path, options) => request(baseUrl, method, path, options),
    state: {},
  };
}

/** Throws a readable error when a setup call did not get the status it needs. */
export function expectStatus(res: HttpResponse, status: number, what: string): void {
  if (res.status !== status) {
    const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    throw new Error(`${what}: expected ${status}, got ${res.status} ${body.slice(0, 300)}`);
  }
}
