import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { AuthOutcome, Authenticator } from './authenticator.ts';
import { parseBearerAuthorization } from './basic-credentials.ts';

/**
 * Passport strategies for the two schemes, on passport's Strategy protocol (`success`, `fail`, `error`).
 * Our own rather than passport-http / passport-http-bearer: passport-http truncates passwords at a colon and
 * is unmaintained (engineering notes B.3), passport-http-bearer also takes tokens from the body and the query.
 * Both read only the Authorization header, with our own parsers, and report why a login failed.
 */
abstract class HeaderStrategy extends Strategy {
  constructor(protected readonly authenticator: Authenticator) {
    super();
  }

  protected abstract check(header: string): Promise<AuthOutcome>;

  /**
   * A credential verified shortly before (see AuthCache), answered without I/O; undefined otherwise. For
   * the middleware's hot path (authenticate.ts); `check` consults the same cache, so `authenticate` need not.
   */
  abstract cached(header: string): Express.User | undefined;

  override authenticate(req: Request): void {
    const header = req.headers.authorization ?? '';
    this.check(header).then(
      (outcome) => (outcome.ok ? this.success(outcome.user) : this.fail({ reason: outcome.reason }, 401)),
      (err: unknown) => this.error(err as Error),
    );
  }
}

export class BasicHeaderStrategy extends HeaderStrategy {
  name = 'basic';
  override cached(header: string) {
    return this.authenticator.cachedBasic(header);
  }
  protected check(header: string) {
    return this.authenticator.basicHeader(header);
  }
}

export class BearerHeaderStrategy extends HeaderStrategy {
  name = 'bearer';
  override cached(header: string) {
    const token = parseBearerAuthorization(header);
    return token ? this.authenticator.cachedBearer(token) : undefined;
  }
  protected async check(header: string): Promise<AuthOutcome> {
    const token = parseBearerAuthorization(header);
    return token ? this.authenticator.bearer(token) : { ok: false, reason: 'failed' };
  }
}

/**
 * Runs one strategy for one request, as passport's `authenticate()` does for a single strategy without
 * sessions, but without building a new middleware and request helpers on every request (this is the hot
 * path). `done` may be called synchronously (a cached credential) or later.
 */
export function runStrategy(strategy: Strategy, req: Request, done: (err: unknown, outcome?: AuthOutcome) => void): void {
  const attempt = Object.create(strategy) as Strategy;
  attempt.success = (user: Express.User) => done(null, { ok: true, user });
  attempt.fail = (challenge?: unknown) =>
    done(null, { ok: false, reason: (challenge as { reason?: 'failed' | 'denied' } | undefined)?.reason ?? 'failed' });
  attempt.error = (err: unknown) => done(err);
  attempt.redirect = () => done(new Error('authentication strategies never redirect'));
  attempt.pass = () => done(null, { ok: false, reason: 'failed' });
  attempt.authenticate(req);
}
