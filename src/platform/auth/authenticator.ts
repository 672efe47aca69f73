import type { Logger } from '../log/logger.ts';
import type { ChangeFeed } from '../events/change-feed.ts';
import { MAX_USERNAME_LENGTH, type AuthStore, type AuthUser, type DirectoryUser, type LoginRecord } from './auth-user.ts';
import { parseBasicAuthorization, parseBearerAuthorization, type BasicCredentials } from './basic-credentials.ts';
import { AUTH_TTL_MS, AuthCache, loginTopic, type BasicEntry, type BearerEntry } from './auth-cache.ts';
import { AddressThrottle, type AddressLimit } from './address-throttle.ts';
import { PasswordHasher } from './password-hasher.ts';
import { hashToken } from './tokens.ts';

/** `verified`: this very call ran the slow password check (a login, for the rate limits), not a cached or shared one. */
export type AuthOutcome = { ok: true; user: AuthUser; verified?: boolean } | { ok: false; reason: 'failed' | 'denied' };

/** A verified password, with what a sign-in session records: the stored hash and the failures before it. */
export type PasswordOutcome =
  | { ok: true; user: AuthUser; passwordHash: string; priorFailures: number; verified?: boolean }
  | { ok: false; reason: 'failed' | 'denied' };


/** Told about refused logins, for the metrics (see platform/metrics). */
export interface LoginObserver {
  /** A credential was refused: `failed` (wrong, unknown, malformed) or `denied` (the name is locked). */
  loginRefused(scheme: 'basic' | 'bearer', reason: 'failed' | 'denied'): void;
  /** A failed login locked its name. */
  accountLocked(): void;
  /** A login refused before its hash: its address failed too often, or the hash pool was too busy. */
  loginLimited?(reason: 'failed_logins_per_address' | 'hash_pool_busy'): void;
}

export interface AuthenticatorOptions {
  store: AuthStore;
  hasher: PasswordHasher;
  changes: ChangeFeed;
  maxAttempts: number;
  /** 0: locked until an administrator resets the lock. */
  lockoutMinutes: number;
  /** Failed logins per client address (LOGIN_FAILURES_PER_ADDRESS); undefined: no such limit. */
  addressLimit?: AddressLimit | undefined;
  log?: Logger;
}

const TOKEN_TOUCH_INTERVAL_MS = 60_000;
/** A Basic entry used in the last this-long of its life is checked again in the background, so it never expires under load. */
const REFRESH_AHEAD_MS = 10_000;

/**
 * The rules of logging in, independent of HTTP: lockout, the slow hash, token expiry, and the cache that
 * keeps the hot path free of database work. Unknown user, inactive user and wrong password all answer the
 * same 'failed', after the same work.
 *
 * A guess is counted as a failure (for its name in the database, for its address in memory) before its hash
 * runs, and a success takes that back: so N concurrent guesses are counted and locked exactly as N sequential
 * ones, and nothing is evaluated once the name is locked. A failure changes only its own name's state: it
 * moves that name's login topic, and a cached credential of that name is checked against the database again
 * (the lock, the counter, the stored hash; no hash) before its next use; nothing else is evicted. Concurrent
 * checks of one Basic header share one check (single flight).
 */
export class Authenticator {
  /** Emptied by every directory change in the cluster before its next lookup (see BoundedCache). */
  readonly cache: AuthCache;
  /** Set by the metrics when they are on. */
  observer: LoginObserver | undefined;
  private readonly throttle: AddressThrottle;
  /** Checks of a Basic header under way, by cache key, that a concurrent request with that header joins. */
  private readonly checks = new Map<string, Promise<PasswordOutcome>>();
  /** Background checks of entries near their expiry, by cache key. */
  private readonly refreshes = new Set<string>();

  constructor(private readonly opts: AuthenticatorOptions) {
    this.cache = new AuthCache(opts.changes);
    this.throttle = new AddressThrottle(opts.addressLimit);
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
    const entry = this.opts.changes.live ? this.cache.basic.get(key) : undefined;
    if (!entry || !current(entry)) return undefined;
    this.refreshAhead(key, entry);
    return entry.user;
  }

  /**
   * A whole `Authorization: Basic …` value; a cached success is found before the header is even decoded.
   * `client`: the address the request came from, for the limit of failed logins per address.
   */
  async basicHeader(header: string, key = this.basicKey(header), client?: string): Promise<AuthOutcome> {
    // peek: the lookup was counted by cachedBasic, which the middleware asks first.
    const cached = this.cache.basic.peek(key);
    if (cached && this.opts.changes.live && current(cached)) return { ok: true, user: cached.user };
    const credentials = parseBasicAuthorization(header);
    let outcome: AuthOutcome;
    if (!credentials) outcome = { ok: false, reason: 'failed' };
    else {
      let check = this.checks.get(key);
      const joined = check !== undefined;
      if (!check) {
        check = this.basic(credentials, key, cached, client).finally(() => this.checks.delete(key));
        this.checks.set(key, check);
      }
      outcome = await check;
      // Only the request that ran the check verified a password: those that joined it waited, nothing more.
      if (joined && outcome.ok && outcome.verified) outcome = { ok: true, user: outcome.user };
    }
    if (!outcome.ok) this.observer?.loginRefused('basic', outcome.reason);
    return outcome;
  }

  /**
   * A username and password from a sign-in form: exactly the rules of Basic (lockout, counting, the same
   * answer for an unknown name and a wrong password), always with the slow hash, and nothing is cached.
   */
  async password(username: string, password: string, client?: string): Promise<PasswordOutcome> {
    return this.basic({ username, password }, undefined, undefined, client);
  }

  private async basic({ username, password }: BasicCredentials, key: string | undefined, cached: BasicEntry | undefined, client: string | undefined): Promise<PasswordOutcome> {
    const { store, hasher, maxAttempts, lockoutMinutes, changes } = this.opts;
    // A name no account can have is refused after the same slow hash, but never stored: otherwise every
    // request with a new 60 KB name would add a 60 KB row of failed logins. The lookup key is the lower-case
    // name, which can be longer than the name itself (200 × 'İ' becomes 400 characters), so both count.
    if (username.length > MAX_USERNAME_LENGTH || username.toLowerCase().length > MAX_USERNAME_LENGTH) {
      this.admitGuess(client);
      await hasher.burn(password, true);
      return { ok: false, reason: 'failed' };
    }

    // Without a cached verification of this very header this is a guess: refused before the database is read
    // when its address failed too often (429) or the hash pool is too busy (503), so a flood of wrong logins
    // from one address costs a map lookup each. Checked again (and counted) before the hash, below.
    if (!cached) this.refuseEarly(client);

    // Taken before the read: a directory change, or a failed login of this name, that commits meanwhile
    // keeps this answer out of the cache (or marks it for another look).
    const since = this.cache.basic.stamp();
    const mark = this.cache.loginMark(username);
    const seen = mark();
    const login = await store.findLogin(username);
    if (this.isLocked(login.lockedAt)) {
      if (key !== undefined) this.cache.basic.delete(key);
      return { ok: false, reason: 'denied' };
    }
    const user = login.user;
    if (user && user.active && cached && cached.storedHash === user.passwordHash) {
      // This very header was verified against this very hash: no guess is evaluated, so nothing is counted.
      if (login.failures > 0) await store.clearFailures(username);
      return this.succeed(user, login, { key, since, username, mark, seen });
    }

    // A guess. Refused before anything is counted when the hash would wait too long (503) or the address has
    // failed too often (429); then counted for the address and the name before the hash runs.
    const release = this.admitGuess(client);
    let counted: number | undefined;
    try {
      counted = await store.recordFailure(username, maxAttempts, lockoutMinutes);
    } catch (err) {
      release();
      throw err;
    }
    if (counted === undefined) {
      // Locked meanwhile by concurrent guesses: refused unevaluated, as a sequential guess would be.
      release();
      return { ok: false, reason: 'denied' };
    }
    let valid = false;
    if (user) valid = await hasher.verify(password, user.passwordHash, true);
    else await hasher.burn(password, true);

    if (!valid || !user || !user.active) {
      // The first failure (so cached successes of this name elsewhere look again and reset the counter) and
      // a new lock must reach every node; the failures in between need not. Only this name's topic moves.
      if (counted === maxAttempts) this.observer?.accountLocked();
      if (counted === 1 || counted >= maxAttempts) await changes.publish(loginTopic(username));
      return { ok: false, reason: 'failed' };
    }
    release();
    await store.clearFailures(username);
    return { ...this.succeed(user, login, { key, since, username, mark, seen }), verified: true };
  }

  /**
   * A guess may start its hash: refused (503) when the hash pool would keep it waiting too long, or (429) when
   * its address failed too often; answers what gives the address's place back. Told to the metrics.
   */
  private admitGuess(client: string | undefined): () => void {
    const failing = this.throttle.failing(client);
    const release = this.limited(() => this.throttle.reserve(client));
    try {
      this.admitHash(client, false);
    } catch (err) {
      // Busy: the place stays taken (a failure) for an address that is failing already, else it is given back.
      if (!failing) release();
      throw err;
    }
    return release;
  }

  /**
   * `admitGuess` without taking a place: the checks a login makes before it reads anything, the address's
   * first (a throttled address is refused with its 429 whether or not the checks are busy).
   */
  private refuseEarly(client: string | undefined): void {
    this.limited(() => this.throttle.check(client));
    this.admitHash(client, true);
  }

  /** Throws the pool's 503 when a hash would wait too long; `count`: a failing address is charged a failure for it. */
  private admitHash(client: string | undefined, count: boolean): void {
    try {
      this.opts.hasher.pool.admit();
    } catch (err) {
      this.observer?.loginLimited?.('hash_pool_busy');
      if (count) this.throttle.countFailure(client);
      throw err;
    }
  }

  /** Runs a step of the address throttle, telling the metrics when it refuses. */
  private limited<T>(step: () => T): T {
    try {
      return step();
    } catch (err) {
      this.observer?.loginLimited?.('failed_logins_per_address');
      throw err;
    }
  }

  /** The success of a check: the entry cached (for a Basic header), the outcome answered. */
  private succeed(
    user: NonNullable<LoginRecord['user']>,
    login: LoginRecord,
    c: { key: string | undefined; since: number; username: string; mark: () => number; seen: number },
  ): Extract<PasswordOutcome, { ok: true }> {
    const { passwordHash, ...profile } = user;
    const authUser = asAuthUser(profile, 'basic');
    if (c.key !== undefined) {
      this.cache.basic.set(c.key, { user: authUser, storedHash: passwordHash, username: c.username, mark: c.mark, seen: c.seen, checkedAt: Date.now() }, c.since);
    }
    return { ok: true, user: authUser, passwordHash, priorFailures: login.failures };
  }

  /**
   * Starts a background look at an entry in the last seconds of its life: the lock, the counter and the
   * stored hash are read again (no slow hash), and the entry lives on when nothing changed. A credential in
   * steady use so never expires, and never makes its concurrent users wait for a hash at once.
   */
  private refreshAhead(key: string, entry: BasicEntry): void {
    if (Date.now() - entry.checkedAt < AUTH_TTL_MS - REFRESH_AHEAD_MS || this.refreshes.has(key)) return;
    this.refreshes.add(key);
    this.refresh(key, entry)
      .catch((err: unknown) => this.opts.log?.warn({ err }, 'could not check a cached login again'))
      .finally(() => this.refreshes.delete(key));
  }

  private async refresh(key: string, entry: BasicEntry): Promise<void> {
    const since = this.cache.basic.stamp();
    const seen = entry.mark();
    const login = await this.opts.store.findLogin(entry.username);
    const user = login.user;
    if (this.isLocked(login.lockedAt) || !user || !user.active || user.passwordHash !== entry.storedHash) {
      // The next request runs the whole check, with its password.
      if (this.cache.basic.peek(key) === entry) this.cache.basic.delete(key);
      return;
    }
    if (login.failures > 0) await this.opts.store.clearFailures(entry.username);
    this.succeed(user, login, { key, since, username: entry.username, mark: entry.mark, seen });
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
      const key = this.basicKey(header);
      const entry = this.cache.basic.peek(key);
      if (!entry || !current(entry)) return undefined;
      return {
        user: entry.user,
        confirm: () => {
          this.cache.basic.countHit();
          this.refreshAhead(key, entry);
        },
      };
    }
    return undefined;
  }

  /** The user of a token found in the cache and still valid, without any I/O; undefined when it must be looked up. */
  cachedBearer(rawToken: string, tokenHash = hashToken(rawToken)): AuthUser | undefined {
    const entry = this.opts.changes.live ? this.cache.bearer.get(tokenHash) : undefined;
    return entry && this.admit(entry);
  }

  /**
   * A token the cache did not answer. `client`: the address it came from. A wrong token counts as a failed login
   * of that address (LOGIN_FAILURES_PER_ADDRESS, shared with wrong passwords), so a client guessing tokens is
   * refused (429) after the same number of failures, before the database is read; valid tokens that the cache
   * knows go on from that address, as cached Basic credentials do.
   */
  async bearer(rawToken: string, tokenHash = hashToken(rawToken), client?: string): Promise<AuthOutcome> {
    // peek: the lookup was counted by cachedBearer, which the middleware asks first.
    let entry = this.opts.changes.live ? this.cache.bearer.peek(tokenHash) : undefined;
    if (!entry) {
      this.limited(() => this.throttle.check(client));
      const since = this.cache.bearer.stamp();
      const record = await this.opts.store.findToken(tokenHash);
      if (!record) return this.bearerFailed(client);
      entry = this.cache.bearer.set(tokenHash, {
        user: asAuthUser(record.user, 'bearer', record.scope === 'read', record.tokenId),
        tokenId: record.tokenId,
        tokenExpiresAt: record.expiresAt,
        lastUsedAt: record.lastUsedAt,
      }, since);
    }
    const user = this.admit(entry);
    return user ? { ok: true, user } : this.bearerFailed(client);
  }

  /** A refused token: counted for its address (the 429 when that was the last one the window allows). */
  private bearerFailed(client: string | undefined): AuthOutcome {
    this.observer?.loginRefused('bearer', 'failed');
    // A failure's place is never given back; the function reserve answers (for a success) is not kept.
    this.limited(() => this.throttle.reserve(client));
    return { ok: false, reason: 'failed' };
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

/** Whether no failed login of the entry's name (nor a reconnect of the feed) happened since it was checked. */
const current = (entry: BasicEntry) => entry.mark() === entry.seen;

/** The request user of a cache entry: frozen, because every request it authenticates shares it. */
export function asAuthUser(user: DirectoryUser, via: AuthUser['via'], readOnly = false, tokenId?: number): AuthUser {
  return Object.freeze({ ...user, groups: Object.freeze([...user.groups]), via, readOnly, ...(tokenId === undefined ? {} : { tokenId }) });
}
