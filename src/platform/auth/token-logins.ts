import type { Logger } from '../log/logger.ts';
import type { ChangeFeed } from '../events/change-feed.ts';
import { asAuthUser, type AuthStore, type AuthUser } from './auth-user.ts';
import type { AuthCache, BearerEntry } from './auth-cache.ts';
import type { LoginGate } from './login-gate.ts';
import { hashToken } from './tokens.ts';

const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/**
 * What a raw personal access token looks like (tokens.ts: 33 random bytes in URL-safe Base64). A Basic password of
 * this shape is tried as a token first; one that is no valid token of the user gets a hint in its 401.
 */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{44}$/;
export const isTokenShaped = (password: string) => TOKEN_SHAPE.test(password);

/**
 * Personal access tokens as credentials: `Authorization: Bearer`, and (issue 42) as the password of their own user
 * in Basic (`curl -u alice:$TOKEN`), with the token's scope. A token is never a password: it is not subject to
 * the lock of a name, and a token that is refused counts only as a failed login of its client address.
 */
export class TokenLogins {
  constructor(
    private readonly deps: { store: AuthStore; cache: AuthCache; changes: ChangeFeed; gate: LoginGate; log?: Logger | undefined },
  ) {}

  /** The entry of a token found in the cache and still valid, without any I/O. */
  cached(tokenHash: string, count: boolean): BearerEntry | undefined {
    if (!this.deps.changes.live) return undefined;
    return count ? this.deps.cache.bearer.get(tokenHash) : this.deps.cache.bearer.peek(tokenHash);
  }

  /**
   * The entry of a token: from the cache, else from the database (the client's failed-login window checked first,
   * 429, so a client guessing tokens is refused before the database is read); undefined when no token has that hash.
   */
  async find(tokenHash: string, client: string | undefined): Promise<BearerEntry | undefined> {
    const known = this.cached(tokenHash, false);
    if (known) return known;
    this.deps.gate.check(client);
    const since = this.deps.cache.bearer.stamp();
    const record = await this.deps.store.findToken(tokenHash);
    if (!record) return undefined;
    return this.deps.cache.bearer.set(
      tokenHash,
      {
        user: asAuthUser(record.user, 'bearer', record.scope === 'read', record.tokenId),
        tokenId: record.tokenId,
        tokenExpiresAt: record.expiresAt,
        lastUsedAt: record.lastUsedAt,
      },
      since,
    );
  }

  /**
   * A Basic password that may be a token of `username`: its entry when it is a valid token of exactly that user
   * (any other answer, a token of someone else included, leaves the password to be checked as a password).
   */
  async asPassword(username: string, password: string, client: string | undefined): Promise<BearerEntry | undefined> {
    if (!isTokenShaped(password)) return undefined;
    const entry = await this.find(hashToken(password), client);
    if (!entry || entry.user.name.toLowerCase() !== username.toLowerCase()) return undefined;
    return this.admit(entry) ? entry : undefined;
  }

  /** The token's user when the token is still valid; records the use at most once a minute. */
  admit(entry: BearerEntry): AuthUser | undefined {
    const now = Date.now();
    if (!entry.user.active || (entry.tokenExpiresAt && entry.tokenExpiresAt.getTime() <= now)) return undefined;
    // Writing last_used_at on every request would double the work of a hot path; once a minute is enough.
    if (!entry.lastUsedAt || now - entry.lastUsedAt.getTime() > TOKEN_TOUCH_INTERVAL_MS) {
      entry.lastUsedAt = new Date(now);
      this.deps.store.touchToken(entry.tokenId).catch((err: unknown) => this.deps.log?.warn({ err }, 'could not record token use'));
    }
    return entry.user;
  }

  /** Whether a whole header's token is valid by the cache alone (the shortcut of `peekCachedHeader`). */
  validWithoutIo(entry: BearerEntry): boolean {
    return entry.user.active && !(entry.tokenExpiresAt && entry.tokenExpiresAt.getTime() <= Date.now());
  }
}
