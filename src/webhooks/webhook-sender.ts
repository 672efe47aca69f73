// One delivery attempt: the POST, within the promises made to operators. The target must be on the webhook
// allowlist at the moment of sending (not only when it was saved) and resolve to no link-local or metadata
// address no entry names (the connection uses exactly the address checked). Redirects are not followed: a 3xx is
// a failed attempt, so a listed target cannot send the delivery to an address that is not listed.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostOf, normaliseUrl, type OutboundAllowlist } from '../platform/http/outbound-allowlist.ts';
import { ForbiddenAddressError, guardedLookup, type Resolve } from '../platform/http/guarded-lookup.ts';
import { signatureOf } from './webhook-signer.ts';

/** How much of an answer is kept in the delivery history. */
export const EXCERPT_BYTES = 1024;

export interface Attempt {
  url: string;
  identifier: string;
  /** The body without `timestamp`, as JSON text of an object (the queue keeps it so); the attempt adds it. */
  payload: string;
  secret: string | null;
}

export interface AttemptResult {
  ok: boolean;
  /** The answer's status; null when there was none (refused address, timeout, connection error). */
  status: number | null;
  durationMs: number;
  /** The first bytes of the answer (at most EXCERPT_BYTES, decoded as UTF-8). */
  excerpt: string | null;
  /** Why it failed, for the history. */
  error: string | null;
}

/** Why a URL may not be called, or undefined when it may (also used when a subscription is saved). */
export function refusalOf(allowlist: OutboundAllowlist, raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs can be called';
  // Credentials in a URL would be stored and shown in every listing; a receiver authenticates with the secret.
  if (url.username !== '' || url.password !== '') return 'a URL with user information (user:password@) is not accepted; use the secret';
  if (!allowlist.allows(url)) return `${normaliseUrl(url)} is not on the webhook allowlist (WEBHOOK_ALLOWLIST)`;
  if (allowlist.isBannedHost(hostOf(url))) return `${hostOf(url)} is a link-local or metadata address`;
  return undefined;
}

export class WebhookSender {
  private readonly lookup: LookupFunction;
  private readonly decisions = new Map<string, URL | string>();
  // Kept-alive connections: a burst of deliveries to one receiver does not open a connection per event. Each
  // new connection still goes through the guarded lookup.
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 8 }), https: new https.Agent({ keepAlive: true, maxSockets: 8 }) };

  constructor(
    private readonly opts: { allowlist: OutboundAllowlist; timeoutMs: number; resolve?: Resolve; userAgent?: string },
  ) {
    this.lookup = guardedLookup(opts.allowlist, opts.resolve);
  }

  /**
   * The URL to call, or why it may not be called. The allowlist does not change while the process runs, so the
   * answer is kept per URL (a few subscriptions' targets); the resolved address is still checked per connection.
   */
  private checked(raw: string): URL | string {
    let known = this.decisions.get(raw);
    if (known === undefined) {
      known = refusalOf(this.opts.allowlist, raw) ?? new URL(normaliseUrl(new URL(raw)));
      if (this.decisions.size >= 1000) this.decisions.clear();
      this.decisions.set(raw, known);
    }
    return known;
  }

  /** Closes the kept-alive connections (the node stops). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  async send(attempt: Attempt): Promise<AttemptResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    const target = this.checked(attempt.url);
    if (typeof target === 'string') return { ok: false, status: null, durationMs: 0, excerpt: null, error: `refused: ${target}` };
    const timestamp = Date.now();
    // The stored text with `timestamp` as its last member: no parse and no serialisation per attempt.
    const open = attempt.payload.trimEnd().slice(0, -1).trimEnd();
    const body = Buffer.from(`${open}${open.endsWith('{') ? '' : ','}"timestamp":${timestamp}}`, 'utf8');
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      'user-agent': this.opts.userAgent ?? 'addon-pair-webhooks',
      'x-atlassian-webhook-identifier': attempt.identifier,
      'x-webhook-timestamp': String(timestamp),
    };
    if (attempt.secret) headers['x-hub-signature'] = signatureOf(attempt.secret, body);
    try {
      const { status, excerpt } = await this.post(target, headers, body);
      const ok = status >= 200 && status <= 299;
      const error = ok ? null : status >= 300 && status <= 399 ? `answered ${status}: redirects are not followed` : `answered ${status}`;
      return { ok, status, durationMs: took(), excerpt, error };
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const error =
        err instanceof ForbiddenAddressError
          ? `refused: ${e.message}`
          : e.name === 'TimeoutError' || e.name === 'AbortError'
            ? `no answer within ${this.opts.timeoutMs} ms`
            : `could not connect: ${e.code ?? e.message ?? String(err)}`;
      return { ok: false, status: null, durationMs: took(), excerpt: null, error };
    }
  }

  /** POSTs and reads the status and the answer's first bytes; the whole exchange within the timeout. */
  private post(url: URL, headers: Record<string, string>, body: Buffer): Promise<{ status: number; excerpt: string }> {
    const signal = AbortSignal.timeout(this.opts.timeoutMs);
    return new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const client = secure ? https : http;
      const agent = secure ? this.agents.https : this.agents.http;
      const req = client.request(url, { method: 'POST', headers, signal, lookup: this.lookup, agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk.subarray(0, EXCERPT_BYTES - size));
          size += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}
