// The `ctx` handed to scenario setups and latency calls, plus header helpers.
import http from 'node:http';
import type { BenchContext, HttpOptions, HttpResponse } from './types.ts';

export function basic(username: string, password: string): string {
  return 'Basic ' + Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/**
 * One request over node:http on a keep-alive connection. Not `fetch`: its client (undici) cost the bench's own
 * process about 0.8 ms of CPU per request, 2.5 times node:http's, on the same two cores as the server and the
 * database, so that the clients of the latency scenarios (4 writers of one list, say) slowed what they measure.
 * autocannon, the load of the HTTP scenarios, is a lean client too. Bodies come as they are sent: no
 * Accept-Encoding is added, nothing is decompressed.
 */
function request(agent: http.Agent, baseUrl: string, method: string, path: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.auth) headers.authorization = options.auth;
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(baseUrl + path, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const received = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) received.append(name, v);
        }
        let parsed: unknown = text;
        if ((received.get('content-type') ?? '').includes('json') && text) {
          try {
            parsed = JSON.parse(text);
          } catch {
            // Leave it as text; the setup will report the status and body it got.
          }
        }
        resolve({ status: res.statusCode ?? 0, headers: received, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function createContext(baseUrl: string, adminUsername: string, adminPassword: string, databaseUrl?: string): BenchContext {
  // Idle keep-alive sockets do not hold the process open (node:http unrefs them).
  const agent = new http.Agent({ keepAlive: true });
  return {
    baseUrl,
    databaseUrl,
    adminUsername,
    adminPassword,
    adminAuth: basic(adminUsername, adminPassword),
    http: (method, path, options) => request(agent, baseUrl, method, path, options),
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
