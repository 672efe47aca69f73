// The HTTP client every live source (a wiki or a tracker reached over REST) reads through: one base URL, one
// credential, JSON GETs with a timeout, a paging helper, and failures as one-line SourceHttpErrors that name the
// cause (unreachable, credentials refused, HTML where JSON was expected, any other status) and never carry the
// credential: messages are built from the origin and path only, and scrubbed of the secret besides.
import type { z } from 'zod';

export type SourceAuth = { token: string } | { user: string; password: string };

export type SourceHttpErrorKind =
  | 'bad-url'
  | 'unreachable'
  | 'timeout'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'not-json'
  | 'bad-answer'
  | 'too-large'
  | 'status';

export class SourceHttpError extends Error {
  constructor(
    readonly kind: SourceHttpErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SourceHttpError';
  }
}

export const isNotFound = (err: unknown): boolean => err instanceof SourceHttpError && err.kind === 'not-found';

export type Query = Record<string, string | number | boolean | undefined>;

export interface SourceClientOptions {
  url: string;
  auth: SourceAuth;
  /** Per request, headers to end of body. */
  timeoutMs?: number;
  /** The largest answer read (bytes); a longer one stops the import with 'too-large' instead of filling memory. */
  maxAnswerBytes?: number;
  /** For tests: a stand-in for the global fetch. */
  fetchImpl?: typeof fetch;
}

/**
 * The default cap of one answer (SOURCE_MAX_ANSWER_MB): a page of 100 items, or one page's body, is far smaller;
 * a source that streams without end (or a hostile one) cannot make the import hold more than this per request.
 */
export const SOURCE_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export const SOURCE_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
/** Error codes of a connection dropped under a request (not a refused or unknown host). */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function authHeader(auth: SourceAuth): string {
  if ('token' in auth) return `Bearer ${auth.token}`;
  return `Basic ${Buffer.from(`${auth.user}:${auth.password}`, 'utf8').toString('base64')}`;
}

/** Parses the source's base URL; a user or password inside it is refused (credentials go through `auth`). */
export function parseSourceUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SourceHttpError('bad-url', `not a valid URL: ${raw.slice(0, 200).replace(/\/\/[^/@]*@/, '//')}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceHttpError('bad-url', `the source URL must be http or https, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SourceHttpError('bad-url', 'the source URL must not hold credentials: use --token or --user');
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

export class SourceClient {
  readonly base: URL;
  /** Scheme, host and port, for messages. */
  readonly origin: string;
  private readonly authorization: string;
  private readonly secrets: string[];
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly maxAnswerBytes: number;

  constructor(opts: SourceClientOptions) {
    this.base = parseSourceUrl(opts.url);
    this.origin = this.base.origin;
    this.authorization = authHeader(opts.auth);
    this.secrets = ('token' in opts.auth ? [opts.auth.token] : [opts.auth.password])
      .concat(this.authorization.split(' ')[1] ?? '')
      .filter((s) => s.length >= 4);
    this.timeoutMs = opts.timeoutMs ?? SOURCE_TIMEOUT_MS;
    this.fetchImpl = opts.fetchImpl ?? fetch;
    this.maxAnswerBytes = opts.maxAnswerBytes ?? SOURCE_MAX_ANSWER_BYTES;
  }

  /** The absolute URL of a path relative to the base (a leading slash is relative to the base too). */
  urlOf(path: string, query: Query = {}): URL {
    const url = new URL(path.replace(/^\/+/, ''), this.base);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** GET a JSON document; with a schema, the answer is validated and a mismatch is a one-line 'bad-answer'. */
  async getJson<T = unknown>(path: string, query?: Query, schema?: z.ZodType<T>): Promise<T> {
    const url = this.urlOf(path, query);
    const where = `${this.origin}${url.pathname}`;
    const res = await this.send(url, where);
    const type = res.headers.get('content-type') ?? '';
    const text = await this.readBody(res, where);
    if (!res.ok) throw this.statusError(res.status, where, type, text);
    if (/html/i.test(type) || /^\s*</.test(text)) {
      throw this.fail('not-json', `${where} answered an HTML page where JSON was expected (is the URL the site's base URL?)`);
    }
    let body: unknown;
    try {
      body = text.trim() === '' ? null : JSON.parse(text);
    } catch {
      throw this.fail('not-json', `${where} answered something that is not JSON (${type || 'no content type'})`);
    }
    if (!schema) return body as T;
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw this.fail('bad-answer', `${where} answered an unexpected shape${at}: ${issue?.message ?? 'invalid'}`);
  }

  /**
   * Every item of a paged collection. Pages are asked with `startParam`/`limitParam` (tracker: startAt and
   * maxResults; wiki: start and limit) and walked until the source says it is done: `isLast`, `total`, a
   * missing `_links.next`, or a short or empty page. The next start counts the items received, so a source
   * that caps the page size below the asked one is still read whole.
   */
  async *paged<T>(path: string, opts: PageOptions<T>): AsyncGenerator<T> {
    const limit = opts.pageSize ?? 100;
    let start = 0;
    for (let guard = 0; guard < 100_000; guard += 1) {
      const body = await this.getJson(path, {
        ...opts.query,
        [opts.startParam ?? 'startAt']: start,
        [opts.limitParam ?? 'maxResults']: limit,
      });
      const items = opts.items(body);
      for (const item of items) yield item;
      start += items.length;
      if (items.length === 0 || pageIsLast(body, start, items.length, limit)) return;
    }
  }

  private async send(url: URL, where: string): Promise<Response> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const res = await this.fetchOnce(current, where);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || location === null) return res;
      await res.body?.cancel();
      const next = new URL(location, current);
      // The credential goes only to the origin it was given for: the same scheme, host AND port (another port of
      // the same host may be another program). A redirect elsewhere is refused rather than followed without the
      // credential, which would only fail later and less clearly.
      if (next.origin !== this.base.origin) {
        throw this.fail('status', `${where} redirected to ${next.origin}; give that address as the source URL`, res.status);
      }
      if (/login/i.test(next.pathname)) {
        throw this.fail('unauthorized', `${this.origin} sent the request to its login page: the credentials were not accepted`, res.status);
      }
      current = next;
    }
    throw this.fail('status', `${where} redirected more than ${MAX_REDIRECTS} times`);
  }

  /**
   * One GET. A kept-alive connection that the source closed meanwhile fails at once with a reset; a GET is safe
   * to send again, so that is retried twice (after 100 and 400 ms). Refusals and timeouts are not retried.
   */
  private async fetchOnce(url: URL, where: string): Promise<Response> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.fetchImpl(url, {
          headers: { Authorization: this.authorization, Accept: 'application/json' },
          redirect: 'manual',
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        const code = (err as { cause?: { code?: string } }).cause?.code ?? '';
        if (attempt >= 2 || !DROPPED.has(code)) throw this.transportError(err, where);
        await new Promise((resolve) => setTimeout(resolve, 100 * 4 ** attempt));
      }
    }
  }

  /** The answer's text, read chunk by chunk and stopped once it passes maxAnswerBytes. */
  private async readBody(res: Response, where: string): Promise<string> {
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > this.maxAnswerBytes) {
      await res.body?.cancel();
      throw this.tooLarge(where);
    }
    if (!res.body) return '';
    const chunks: Buffer[] = [];
    let total = 0;
    const reader = res.body.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        total += next.value.byteLength;
        if (total > this.maxAnswerBytes) {
          await reader.cancel().catch(() => undefined);
          throw this.tooLarge(where);
        }
        chunks.push(Buffer.from(next.value));
      }
    } catch (err) {
      if (err instanceof SourceHttpError) throw err;
      throw this.transportError(err, where);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private tooLarge(where: string): SourceHttpError {
    return this.fail('too-large', `${where} answered more than ${this.maxAnswerBytes} bytes (SOURCE_MAX_ANSWER_MB)`);
  }

  private transportError(err: unknown, where: string): SourceHttpError {
    const e = err as { name?: string; cause?: { code?: string; message?: string }; message?: string };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      return this.fail('timeout', `${where} did not answer within ${Math.round(this.timeoutMs / 1000)} s`);
    }
    let cause = e.cause?.code ?? e.cause?.message ?? e.message ?? 'unknown error';
    // fetch will not connect to a few ports that other protocols use (1, 9, 25, 6000 …), and says only this.
    if (cause === 'bad port') cause = `port ${new URL(where).port} is one that HTTP clients refuse to use`;
    return this.fail('unreachable', `could not reach ${this.origin}: ${cause}`);
  }

  private statusError(status: number, where: string, type: string, text: string): SourceHttpError {
    if (status === 401) return this.fail('unauthorized', `${this.origin} refused the credentials (401)`, status);
    if (status === 403) return this.fail('forbidden', `${where} denied access (403): the user lacks the right`, status);
    if (status === 404) return this.fail('not-found', `${where} does not exist on the source (404)`, status);
    const detail = /json/i.test(type) ? messageOf(text) : '';
    return this.fail('status', `${where} answered ${status}${detail ? `: ${detail}` : ''}`, status);
  }

  /** Every error leaves through here: the secret never appears in a message, whatever echoed it. */
  private fail(kind: SourceHttpErrorKind, message: string, status?: number): SourceHttpError {
    let safe = message.replace(/\s+/g, ' ');
    for (const s of this.secrets) safe = safe.split(s).join('***');
    return new SourceHttpError(kind, safe, status);
  }
}

export interface PageOptions<T> {
  query?: Query;
  pageSize?: number;
  startParam?: string;
  limitParam?: string;
  /** The items of one page, e.g. `(b) => b.values` or `(b) => b.results`. */
  items: (body: unknown) => T[];
}

function pageIsLast(body: unknown, received: number, got: number, asked: number): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return got < asked;
  const b = body as { isLast?: unknown; total?: unknown; _links?: { next?: unknown } };
  if (typeof b.isLast === 'boolean') return b.isLast;
  if (typeof b.total === 'number') return received >= b.total;
  if (typeof b._links === 'object' && b._links !== null) return b._links.next === undefined;
  return got < asked;
}

/** The source's own error text from a JSON error body (tracker errorMessages, wiki message), short. */
function messageOf(text: string): string {
  try {
    const b = JSON.parse(text) as { errorMessages?: unknown; message?: unknown; errors?: unknown };
    const parts = Array.isArray(b.errorMessages) ? b.errorMessages.map(String) : [];
    if (typeof b.message === 'string') parts.push(b.message);
    return parts.join('; ').slice(0, 200);
  } catch {
    return '';
  }
}
