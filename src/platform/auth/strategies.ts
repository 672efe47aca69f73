import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { AuthUser } from './auth-user.ts';
import type { AuthOutcome, Authenticator } from './authenticator.ts';
import { parseBearerAuthorization } from './basic-credentials.ts';
import { hashToken } from './tokens.ts';
import { clientAddress } from '../http/client-address.ts';

/**
 * Passport strategies for the two schemes, on passport's Strategy protocol (`success`, `fail`, `error`), run by
 * passport's `authenticate` in the pipeline's authentication step (authenticate.ts).
 * Our own rather than passport-http / passport-http-bearer: passport-http truncates passwords at a colon and
 * is unmaintained (engineering notes B.3), passport-http-bearer also takes tokens from the body and the query.
 * Both read only the Authorization header, with our own parsers, and report why a login failed.
 */
export abstract class HeaderStrategy extends Strategy {
  abstract name: string;
  constructor(protected readonly authenticator: Authenticator) {
    super();
  }

  /**
   * The credential's cache key of a request that missed the cache, so the strategy that runs next does not
   * hash the credential a second time. Held only as long as the request lives.
   */
  private readonly missedKeys = new WeakMap<IncomingMessage, string>();

  protected abstract keyOf(header: string, req: IncomingMessage): string | undefined;
  protected abstract lookup(header: string, key: string): Express.User | undefined;
  protected abstract check(header: string, key: string | undefined, req: Request): Promise<AuthOutcome>;

  /**
   * A credential verified shortly before (see AuthCache), answered without I/O; undefined otherwise. For
   * the middleware's hot path (authenticate.ts); `check` consults the same cache, so `authenticate` need not.
   */
  cached(header: string, req: IncomingMessage): Express.User | undefined {
    const key = this.keyOf(header, req);
    if (key === undefined) return undefined;
    const user = this.lookup(header, key);
    if (!user) this.missedKeys.set(req, key);
    return user;
  }

  override authenticate(req: Request): void {
    const header = req.headers.authorization ?? '';
    this.check(header, this.missedKeys.get(req), req).then(
      (outcome) => {
        if (!outcome.ok) return this.fail({ reason: outcome.reason, hint: outcome.hint }, 401);
        // A request that ran the slow password check itself is a login for the rate limits (rate-limiter.ts).
        if (outcome.verified === true) req.passwordVerified = true;
        this.success(outcome.user);
      },
      (err: unknown) => this.error(err as Error),
    );
  }
}

export class BasicHeaderStrategy extends HeaderStrategy {
  name = 'basic';
  protected keyOf(header: string, req: IncomingMessage) {
    // The client's address is part of the key: a remembered credential holds for the address it was verified from.
    return this.authenticator.basicKey(header, clientAddress(req));
  }
  protected lookup(header: string, key: string) {
    return this.authenticator.cachedBasic(header, key);
  }
  protected check(header: string, key: string | undefined, req: Request) {
    // The client address counts failed logins per address (behind TRUST_PROXY's proxies: the client they name).
    return this.authenticator.basicHeader(header, key, clientAddress(req));
  }
}

export class BearerHeaderStrategy extends HeaderStrategy {
  name = 'bearer';
  protected keyOf(header: string) {
    const token = parseBearerAuthorization(header);
    return token ? hashToken(token) : undefined;
  }
  protected lookup(header: string, key: string) {
    // The token's hash is all the cache needs; the raw token is not used when the hash is given.
    return this.authenticator.cachedBearer('', key);
  }
  protected async check(header: string, key: string | undefined, req: Request): Promise<AuthOutcome> {
    const token = parseBearerAuthorization(header);
    // A wrong token counts as a failed login of the client address, as a wrong password does.
    return token ? this.authenticator.bearer(token, key, clientAddress(req)) : { ok: false, reason: 'failed' };
  }
}

/**
 * The third credential, after Basic and Bearer: a sign-in session found from the request's cookies. Answers
 * the user, or undefined when there is no live session; rejects (e.g. with a 403) to refuse the request.
 */
export type SessionResolver = (req: Request) => Promise<AuthUser | undefined>;

/**
 * The web interface's sign-in session, from the request's cookie: succeeds with its user, passes when there is
 * no live session (the request goes on anonymously), errs when the resolver refuses the request.
 */
export class SessionCookieStrategy extends Strategy {
  static readonly NAME = 'web-session';
  name = SessionCookieStrategy.NAME;
  constructor(private readonly resolve: SessionResolver) {
    super();
  }

  override authenticate(req: Request): void {
    this.resolve(req).then(
      (user) => (user ? this.success(user) : this.pass()),
      (err: unknown) => this.error(err as Error),
    );
  }
}
