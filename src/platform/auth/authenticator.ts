import type { Logger } from '../log/logger.ts';
import type { ChangeFeed } from '../events/change-feed.ts';
import { MAX_USERNAME_LENGTH, type AuthStore, type AuthUser, type DirectoryUser } from './auth-user.ts';
import { parseBasicAuthorization, parseBearerAuthorization, type BasicCredentials } from './basic-credentials.ts';
import { AuthCache, DIRECTORY_TOPIC, type BasicEntry, type BearerEntry } from './auth-cache.ts';
import { PasswordHasher } from './password-hasher.ts';
import { hashToken } from './tokens.ts';

export type AuthOutcome = { ok: true; user: AuthUser } | { ok: false; reason: 'failed' | 'denied' };

/** A verified password, with what a sign-in session records: the stored hash and the failures before it. */
export type PasswordOutcome =
  | { ok: true; user: AuthUser; passwordHash: string; priorFailures: number }
  | { ok: false; reason: 'failed' | 'denied' };


/** Told about refused logins, for the metrics (see platform/metrics). */
export interface LoginObserver {
  /** A credential was refused: `failed` (wrong, unknown, malformed) or `denied` (the name is locked). */
  loginRefused(scheme: 'basic' | 'bearer', reason: 'failed' | 'denied'): void;
  /** A failed login locked its name. */
  accountLocked(): void;
}

export interface AuthenticatorOptions {
  store: AuthStore;
  hasher: PasswordHasher;
  changes: ChangeFeed;
  maxAttempts: number;
  /** 0: locked until an administrator resets the lock. */
  lockoutMinutes: number;
  log?: Logger;
}

const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/**
 * The rules of logging in, independent of HTTP: lockout, the slow hash, token expiry, and the cache that
 * keeps the hot path free of database work. Unknown user, inactive user and wrong password all answer the
 * same 'failed', after the same work.
 */
export class Authenticator {
  /** Emptied by every directory change in the cluster before its next lookup (see BoundedCache). */
  readonly cache: AuthCache;
  /** Set by the metrics when they are on. */
  observer: LoginObserver | undefined;

  constructor(private readonly opts: AuthenticatorOptions) {
    this.cache = new AuthCache(opts.changes);
  }

  /** The cache key of a whole Basic header (a keyed SHA-256): computed once per request by the strategy. */
  basicKey(header: string): string {
    return this.cache.basicKey(header);
  }

  /** How long a lock lasts (0: until it is reset), for the answer that tells a locked-out person. */
  get lockoutMinutes(): number {
    return this.opts.lockoutMinutes;
  }

  /** The user of a Basic header verified shortly before, without any I/O; undefined when it must be checked. */
  cachedBasic(header: string, key = this.basicKey(header)): AuthUser | undefined {
    return this.opts.changes.live ? this.cache.basic.get(key)?.user : undefined;
  }

  /** A whole `Authorization: Basic …` value; a cached success is found before the header is even decoded. */
  async basicHeader(header: string, key = this.basicKey(header)): Promise<AuthOutcome> {
    // peek: the lookup was counted by cachedBasic, which the middleware asks first.
    const cached = this.cache.basic.peek(key);
    if (cached && this.opts.changes.live) return { ok: true, user: cached.user };
    const credentials = parseBasicAuthorization(header);
    const outcome: AuthOutcome = credentials ? await this.basic(credentials, key, cached) : { ok: false, reason: 'failed' };
    if (!outcome.ok) this.observer?.loginRefused('basic', outcome.reason);
    return outcome;
  }

  /**
   * A username and password from a sign-in form: exactly the rules of Basic (lockout, counting, the same
   * answer for an unknown name and a wrong password), always with the slow hash, and nothing is cached.
   */
  async password(username: string, password: string): Promise<PasswordOutcome> {
    return this.basic({ username, password }, undefined, undefined);
  }

  private async basic({ username, password }: BasicCredentials, key: string | undefined, cached: BasicEntry | undefined): Promise<PasswordOutcome> {
    const { store, hasher, maxAttempts, changes } = this.opts;
    // A name no account can have is refused after the same slow hash, but never stored: otherwise every
    // request with a new 60 KB name would add a 60 KB row of failed logins. The lookup key is the lower-case
    // name, which can be longer than the name itself (200 × 'İ' becomes 400 characters), so both count.
    if (username.length > MAX_USERNAME_LENGTH || username.toLowerCase().length > MAX_USERNAME_LENGTH) {
      await hasher.burn(password);
      return { ok: false, reason: 'failed' };
    }

    // Taken before the read: a directory change that commits meanwhile keeps this answer out of the cache.
    const since = this.cache.basic.stamp();
    const login = await store.findLogin(username);
    if (this.isLocked(login.lockedAt)) return { ok: false, reason: 'denied' };
    const user = login.user;
    let valid = false;
    if (user && cached && cached.storedHash === user.passwordHash) valid = true;
    else if (user) valid = await hasher.verify(password, user.passwordHash);
    else await hasher.burn(password);

    if (!valid || !user || !user.active) {
      const failures = await store.recordFailure(username, maxAttempts);
      // A first failure (so cached successes elsewhere stop skipping the counter reset) and a new lock
      // must reach every node's cache; the failures in between need not.
      if (failures === maxAttempts) this.observer?.accountLocked();
      if (failures === 1 || failures >= maxAttempts) await changes.publish(DIRECTORY_TOPIC);
      return { ok: false, reason: 'failed' };
    }
    if (login.failures > 0) await store.clearFailures(username);
    const { passwordHash, ...profile } = user;
    const authUser = asAuthUser(profile, 'basic');
    if (key !== undefined) this.cache.basic.set(key, { user: authUser, storedHash: passwordHash }, since);
    return { ok: true, user: authUser, passwordHash, priorFailures: login.failures };
  }

  /**
   * For a shortcut that answers only when all its lookups hit (the download fast path): the user of a Basic
   * or Bearer header that `cachedBasic` / `cachedBearer` would answer from memory, found without counting the
   * lookup and without recording a token's use; `confirm()` then does both, exactly as those would have. The
   * scheme is chosen as authenticate.ts chooses it. Undefined whenever the middleware would run a strategy.
   */
  peekCachedHeader(header: string): { user: AuthUser; confirm(): void } | undefined {
    if (!this.opts.changes.live) return undefined;
    if (/^bearer /i.test(header)) {
      const token = parseBearerAuthorization(header);
      const entry = token === undefined ? undefined : this.cache.bearer.peek(hashToken(token));
      if (!entry || !entry.user.active || (entry.tokenExpiresAt && entry.tokenExpiresAt.getTime() <= Date.now())) return undefined;
      return {
        user: entry.user,
        confirm: () => {
          this.cache.bearer.countHit();
          this.admit(entry);
        },
      };
    }
    if (/^basic /i.test(header)) {
      const entry = this.cache.basic.peek(this.basicKey(header));
      return entry && { user: entry.user, confirm: () => this.cache.basic.countHit() };
    }
    return undefined;
  }

  /** The user of a token found in the cache and still valid, without any I/O; undefined when it must be looked up. */
  cachedBearer(rawToken: string, tokenHash = hashToken(rawToken)): AuthUser | undefined {
    const entry = this.opts.changes.live ? this.cache.bearer.get(tokenHash) : undefined;
    return entry && this.admit(entry);
  }

  async bearer(rawToken: string, tokenHash = hashToken(rawToken)): Promise<AuthOutcome> {
    // peek: the lookup was counted by cachedBearer, which the middleware asks first.
    let entry = this.opts.changes.live ? this.cache.bearer.peek(tokenHash) : undefined;
    if (!entry) {
      const since = this.cache.bearer.stamp();
      const record = await this.opts.store.findToken(tokenHash);
      if (!record) {
        this.observer?.loginRefused('bearer', 'failed');
        return { ok: false, reason: 'failed' };
      }
      entry = this.cache.bearer.set(tokenHash, {
        user: asAuthUser(record.user, 'bearer', record.scope === 'read'),
        tokenId: record.tokenId,
        tokenExpiresAt: record.expiresAt,
        lastUsedAt: record.lastUsedAt,
      }, since);
    }
    const user = this.admit(entry);
    if (!user) this.observer?.loginRefused('bearer', 'failed');
    return user ? { ok: true, user } : { ok: false, reason: 'failed' };
  }

  /** The token's user when the token is still valid; records the use at most once a minute. */
  private admit(entry: BearerEntry): AuthUser | undefined {
    const now = Date.now();
    if (!entry.user.active || (entry.tokenExpiresAt && entry.tokenExpiresAt.getTime() <= now)) return undefined;
    // Writing last_used_at on every request would double the work of a hot path; once a minute is enough.
    if (!entry.lastUsedAt || now - entry.lastUsedAt.getTime() > TOKEN_TOUCH_INTERVAL_MS) {
      entry.lastUsedAt = new Date(now);
      this.opts.store.touchToken(entry.tokenId).catch((err: unknown) => this.opts.log?.warn({ err }, 'could not record token use'));
    }
    return entry.user;
  }


  /** Names locked right now (for the metrics): one count query. */
  lockedAccounts(): Promise<number> {
    return this.opts.store.countLocked(this.opts.lockoutMinutes);
  }

  private isLocked(lockedAt: Date | null): boolean {
    if (!lockedAt) return false;
    const minutes = this.opts.lockoutMinutes;
    return minutes === 0 || Date.now() - lockedAt.getTime() < minutes * 60_000;
  }
}

/** The request user of a cache entry: frozen, because every request it authenticates shares it. */
export function asAuthUser(user: DirectoryUser, via: AuthUser['via'], readOnly = false): AuthUser {
  return Object.freeze({ ...user, groups: Object.freeze([...user.groups]), via, readOnly });
}
