// Fetches the template of an `advanced-remote-codeblock-macro` from its `remotefileurl`, within the limits
// the server promises its operators: only URLs on OUTBOUND_ALLOWLIST (every redirect hop is checked again),
// never a link-local or metadata address unless an entry names it (checked on the resolved address, and the
// connection uses exactly the address that was checked), 5 s for the whole exchange, at most 1 MiB of body.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { CodeboxError, type CodeboxErrorKind } from '../codebox/codebox-errors.ts';
import type { RemoteSource } from '../codebox/codebox.ts';
import { hostOf, normaliseUrl, type OutboundAllowlist } from '../../platform/http/outbound-allowlist.ts';
import { ForbiddenAddressError, guardedLookup, type Resolve } from '../../platform/http/guarded-lookup.ts';

export const REMOTE_TIMEOUT_MS = 5000;
export const REMOTE_MAX_BYTES = 1024 * 1024;
export const REMOTE_MAX_REDIRECTS = 5;

export interface RemoteTemplateOptions {
  allowlist: OutboundAllowlist;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  resolve?: Resolve;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const fail = (kind: CodeboxErrorKind, message: string, cause?: unknown) => new CodeboxError(kind, message, { cause });

function parseRemoteUrl(raw: string | undefined, base?: URL): URL {
  if (raw === undefined || raw.trim() === '') throw fail('MALFORMED_URL', 'the remotefileurl parameter is missing');
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch (err) {
    throw fail('MALFORMED_URL', `not a valid URL: ${raw.slice(0, 200)}`, err);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail('MALFORMED_URL', `only http and https URLs can be fetched, not ${url.protocol}`);
  }
  return url;
}

function basicAuth(user: string | undefined, password: string | undefined): string | undefined {
  if (user === undefined || user === '') return undefined;
  return `Basic ${Buffer.from(`${user}:${password ?? ''}`, 'utf8').toString('base64')}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function decode(body: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  // An unknown charset label falls back to UTF-8; decode drops a leading BOM.
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export class RemoteTemplateFetcher {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly lookup: LookupFunction;

  constructor(private readonly opts: RemoteTemplateOptions) {
    this.timeoutMs = opts.timeoutMs ?? REMOTE_TIMEOUT_MS;
    this.maxBytes = opts.maxBytes ?? REMOTE_MAX_BYTES;
    this.maxRedirects = opts.maxRedirects ?? REMOTE_MAX_REDIRECTS;
    this.lookup = guardedLookup(opts.allowlist, opts.resolve);
  }

  /** The template text, or a CodeboxError whose kind names the failure (see docs/codeblocks-api.md for the mapping). */
  async fetch(source: RemoteSource): Promise<string> {
    const start = parseRemoteUrl(source.url);
    // Credentials go only to the origin they were configured for; a redirect elsewhere loses them.
    const auth = basicAuth(source.user, source.password) ?? basicAuth(safeDecode(start.username), safeDecode(start.password));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      let url = start;
      for (let hop = 0; hop <= this.maxRedirects; hop++) {
        this.checkAllowed(url);
        const res = await this.request(url, url.origin === start.origin ? auth : undefined, controller.signal);
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && res.headers.location !== undefined) {
          res.resume();
          url = parseRemoteUrl(res.headers.location, url);
          continue;
        }
        if (status < 200 || status > 299) {
          res.resume();
          throw fail('HTTP', `the remote server answered ${status} for ${normaliseUrl(url)}`);
        }
        return decode(await this.readBody(res), res.headers['content-type']);
      }
      throw fail('HTTP', `more than ${this.maxRedirects} redirects from ${normaliseUrl(start)}`);
    } catch (err) {
      if (controller.signal.aborted) throw fail('IO', `no complete answer within ${this.timeoutMs} ms from ${normaliseUrl(start)}`, err);
      if (err instanceof CodeboxError) throw err;
      if (err instanceof ForbiddenAddressError) throw fail('OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED', err.message);
      const code = (err as { code?: string }).code ?? (err as Error).message;
      throw fail('IO', `could not fetch ${normaliseUrl(start)}: ${code}`, err);
    } finally {
      clearTimeout(timer);
    }
  }

  private checkAllowed(url: URL): void {
    const { allowlist } = this.opts;
    if (!allowlist.allows(url)) {
      throw fail('OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED', `${normaliseUrl(url)} is not on the outbound allowlist`);
    }
    // IP literals never reach DNS resolution, so they are checked here.
    if (allowlist.isBannedHost(hostOf(url))) {
      throw fail('OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED', `${hostOf(url)} is a link-local or metadata address`);
    }
  }

  private request(url: URL, auth: string | undefined, signal: AbortSignal): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const target = new URL(normaliseUrl(url)); // without user:password, which node would turn into auth
      const headers: Record<string, string> = { accept: 'text/plain, */*;q=0.8', 'user-agent': 'addon-pair-codeblocks' };
      if (auth !== undefined) headers.authorization = auth;
      const req = client.request(target, { method: 'GET', headers, signal, lookup: this.lookup, agent: false }, resolve);
      req.on('error', reject);
      req.end();
    });
  }

  private readBody(res: http.IncomingMessage): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const tooLarge = () => fail('CHUNKED_READ', `the remote template is larger than ${this.maxBytes} bytes`);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.maxBytes) {
        res.destroy();
        return reject(tooLarge());
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.maxBytes) {
          res.destroy();
          reject(tooLarge());
        } else chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks, size)));
      res.on('error', (err) => reject(fail('CHUNKED_READ', `the remote answer broke off: ${err.message}`, err)));
      res.on('close', () => {
        if (!res.complete) reject(fail('CHUNKED_READ', 'the remote answer broke off before its end'));
      });
    });
  }
}
