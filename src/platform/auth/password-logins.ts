import type { ChangeFeed } from '../events/change-feed.ts';
import type { Logger } from '../log/logger.ts';
import type { AuthStore, AuthUser, LoginRecord } from './auth-user.ts';
import { asAuthUser, MAX_USERNAME_LENGTH } from './auth-user.ts';
import { AUTH_TTL_MS, loginTopic, type AuthCache, type BasicEntry } from './auth-cache.ts';
import type { BasicCredentials } from './basic-credentials.ts';
import type { LoginGate } from './login-gate.ts';
import { loginDelayMs, sleep, type LoginDelaySettings } from './login-delay.ts';
import type { PasswordHasher } from './password-hasher.ts';

/** A verified password, with what a sign-in session records: the stored hash and the failures before it. */
export type PasswordOutcome =
  | { ok: true; user: AuthUser; passwordHash: string; priorFailures: number; verified?: boolean }
  | { ok: false; reason: 'failed' | 'denied' };


/** Told about refused logins, for the metrics (see platform/metrics). */
export interface LoginObserver {
  /** A credential was refused: `failed` (wrong, unknown, malformed) or `denied` (the name is locked). */
  loginRefused(scheme: 'basic' | 'bearer', reason: 'failed' | 'denied'): void;
  /** A failed login locked its name for its client address. */
  accountLocked(): void;
  /** A login refused before its hash: its address failed too often, or the hash pool was too busy. */
  loginLimited?(reason: 'failed_logins_per_address' | 'hash_pool_busy'): void;
  /** A check waited the growing delay of a name guessed from many addresses (login-delay.ts). */
  loginDelayed?(): void;
}

/**
 * What administrators read in the event log (wired by the composition root to the directory's audit): a name
 * locked for one address, and a name whose checks began to wait (guessed from many addresses). Never a password.
 */
export interface LoginAudit {
  locked(username: string, address: string, failures: number): Promise<void>;
  slowed(username: string, failures: number, delaySeconds: number): Promise<void>;
}

/** The client key of a check whose address is not known (no socket: an in-process call). */
export const UNKNOWN_ADDRESS = '-';

/** A Basic entry used in the last this-long of its life is checked again in the background, so it never expires under load. */
const REFRESH_AHEAD_MS = 10_000;

export interface PasswordLoginOptions {
  store: AuthStore;
  hasher: PasswordHasher;
  changes: ChangeFeed;
  maxAttempts: number;
  /** 0: locked until an administrator resets the lock. */
  lockoutMinutes: number;
  delay?: LoginDelaySettings | undefined;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  log?: Logger | undefined;
}

/**
 * The check of a password (Basic, the sign-in form, a password change's current password): the lock per name and
 * client address, the growing delay of a name guessed from many addresses, counting before the hash, the slow
 * hash, and the Basic cache entry a success leaves (checked again in the background before it expires).
 */
export class PasswordLogins {
  /** Background checks of entries near their expiry, by cache key. */
  private readonly refreshes = new Set<string>();

  constructor(
    private readonly opts: PasswordLoginOptions,
    private readonly cache: AuthCache,
    private readonly gate: LoginGate,
    private readonly hooks: { observer(): LoginObserver | undefined; audit(): LoginAudit | undefined },
  ) {}

  /** `address`: a client key (undefined: unknown, counted under UNKNOWN_ADDRESS in the database, not per address in memory). */
  async check({ username, password }: BasicCredentials, key: string | undefined, cached: BasicEntry | undefined, address: string | undefined): Promise<PasswordOutcome> {
    const { store, hasher, maxAttempts, changes } = this.opts;
    const { cache, gate } = this;
    // A name no account can have is refused after the same slow hash, but never stored: otherwise every
    // request with a new 60 KB name would add a 60 KB row of failed logins. The lookup key is the lower-case
    // name, which can be longer than the name itself (200 × 'İ' becomes 400 characters), so both count.
    if (username.length > MAX_USERNAME_LENGTH || username.toLowerCase().length > MAX_USERNAME_LENGTH) {
      gate.admitGuess(address);
      await hasher.burn(password, true);
      return { ok: false, reason: 'failed' };
    }

    // Without a cached verification of this very header this is a guess: refused before the database is read
    // when its address failed too often (429) or the hash pool is too busy (503), so a flood of wrong logins
    // from one address costs a map lookup each. Checked again (and counted) before the hash, below.
    if (!cached) gate.refuseEarly(address);

    // Taken before the read: a directory change, or a failed login of this name, that commits meanwhile
    // keeps this answer out of the cache (or marks it for another look).
    const since = cache.basic.stamp();
    const mark = cache.loginMark(username);
    const seen = mark();
    const at = address ?? UNKNOWN_ADDRESS;
    const windows = this.windows();
    const login = await store.findLogin(username, at, windows);
    if (this.isLocked(login.lockedAt)) {
      // Locked for this address: refused unevaluated, a remembered credential too (its own address's lock).
      if (key !== undefined) cache.basic.delete(key);
      return { ok: false, reason: 'denied' };
    }
    const user = login.user;
    const entry = { key, since, username, address: at, mark, seen };
    if (user && user.active && cached && cached.storedHash === user.passwordHash) {
      // This very header was verified against this very hash: no guess is evaluated, so nothing is counted.
      if (login.addressFailures > 0) await store.clearFailures(username, at, false);
      return this.succeed(user, login, entry);
    }

    // A guess of a name guessed from many addresses waits its growing delay first (holding nothing).
    const delay = loginDelayMs(login.failures, this.opts.delay);
    if (delay > 0) {
      this.hooks.observer()?.loginDelayed?.();
      await (this.opts.sleep ?? sleep)(delay);
    }

    // Refused before anything is counted when the hash would wait too long (503) or the address has failed too
    // often (429); then counted for the address and the name before the hash runs.
    const release = gate.admitGuess(address);
    let counted: Awaited<ReturnType<AuthStore['recordFailure']>>;
    try {
      counted = await store.recordFailure(username, at, windows);
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
      // The first failure (so cached successes of this name look again) and a new lock must reach every node;
      // the failures in between need not. Only this name's topic moves.
      if (counted.address === 1 || counted.address >= maxAttempts) await changes.publish(loginTopic(username));
      await this.audited(username, at, counted);
      return { ok: false, reason: 'failed' };
    }
    release();
    await store.clearFailures(username, at, true);
    return { ...this.succeed(user, login, entry), verified: true };
  }

  /** The periods of the counters (the series of a name's failures lasts as long as a lock, 15 minutes when locks never end). */
  private windows() {
    const { maxAttempts, lockoutMinutes } = this.opts;
    return { maxAttempts, lockoutMinutes, seriesMinutes: lockoutMinutes > 0 ? lockoutMinutes : 15 };
  }

  /** Tells the metrics and the event log when a failure locked its name for its address, or began a name's delays. */
  private async audited(username: string, address: string, counted: { address: number; total: number }): Promise<void> {
    const locked = counted.address === this.opts.maxAttempts;
    const slowed = this.opts.delay !== undefined && this.opts.delay.afterFailures > 0 && counted.total === this.opts.delay.afterFailures + 1;
    if (locked) this.hooks.observer()?.accountLocked();
    const audit = this.hooks.audit();
    if (!audit || (!locked && !slowed)) return;
    try {
      if (locked) await audit.locked(username, address, counted.address);
      if (slowed) await audit.slowed(username, counted.total, loginDelayMs(counted.total, this.opts.delay) / 1000);
    } catch (err) {
      // The refusal stands whether or not its entry could be written.
      this.opts.log?.warn({ err }, 'could not record a failed login in the event log');
    }
  }

  /** The success of a check: the entry cached (for a Basic header), the outcome answered. */
  private succeed(
    user: NonNullable<LoginRecord['user']>,
    login: LoginRecord,
    c: { key: string | undefined; since: number; username: string; address: string; mark: () => number; seen: number },
  ): Extract<PasswordOutcome, { ok: true }> {
    const cache = this.cache;
    const { passwordHash, ...profile } = user;
    const authUser = asAuthUser(profile, 'basic');
    if (c.key !== undefined) {
      cache.basic.set(c.key, { user: authUser, storedHash: passwordHash, username: c.username, address: c.address, mark: c.mark, seen: c.seen, checkedAt: Date.now() }, c.since);
    }
    return { ok: true, user: authUser, passwordHash, priorFailures: login.failures };
  }

  /**
   * Starts a background look at an entry in the last seconds of its life: its address's lock and the stored hash
   * are read again (no slow hash), and the entry lives on when nothing changed. A credential in steady use so
   * never expires, and never makes its concurrent users wait for a hash at once.
   */
  refreshAhead(key: string, entry: BasicEntry): void {
    if (Date.now() - entry.checkedAt < AUTH_TTL_MS - REFRESH_AHEAD_MS || this.refreshes.has(key)) return;
    this.refreshes.add(key);
    this.refresh(key, entry)
      .catch((err: unknown) => this.opts.log?.warn({ err }, 'could not check a cached login again'))
      .finally(() => this.refreshes.delete(key));
  }

  private async refresh(key: string, entry: BasicEntry): Promise<void> {
    const cache = this.cache;
    const since = cache.basic.stamp();
    const seen = entry.mark();
    const login = await this.opts.store.findLogin(entry.username, entry.address, this.windows());
    const user = login.user;
    if (this.isLocked(login.lockedAt) || !user || !user.active || user.passwordHash !== entry.storedHash) {
      // The next request runs the whole check, with its password.
      if (cache.basic.peek(key) === entry) cache.basic.delete(key);
      return;
    }
    if (login.addressFailures > 0) await this.opts.store.clearFailures(entry.username, entry.address, false);
    this.succeed(user, login, { key, since, username: entry.username, address: entry.address, mark: entry.mark, seen });
  }

  /** Names locked now for at least one address (for the metrics): one count query. */
  lockedAccounts(): Promise<number> {
    return this.opts.store.countLocked(this.opts.lockoutMinutes);
  }

  private isLocked(lockedAt: Date | null): boolean {
    if (!lockedAt) return false;
    const minutes = this.opts.lockoutMinutes;
    return minutes === 0 || Date.now() - lockedAt.getTime() < minutes * 60_000;
  }
}
