import type { Logger } from '../log/logger.ts';
import type { ChangeFeed } from '../events/change-feed.ts';
import type { AuthStore, AuthUser } from './auth-user.ts';
import { parseBasicAuthorization, parseBearerAuthorization, type BasicCredentials } from './basic-credentials.ts';
import { AuthCache, type BasicEntry, type BearerEntry } from './auth-cache.ts';
import { AddressThrottle, type AddressLimit } from './address-throttle.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { hashToken } from './tokens.ts';
import { ClientKeys } from '../http/client-key.ts';
import { LoginGate } from './login-gate.ts';
import type { LoginDelaySettings } from './login-delay.ts';
import { isTokenShaped, TokenLogins } from './token-logins.ts';
import { PasswordLogins, UNKNOWN_ADDRESS, type LoginAudit, type LoginObserver, type PasswordOutcome } from './password-logins.ts';

export { asAuthUser } from './auth-user.ts';

/**
 * `verified`: this very call ran the slow password check (a login, for the rate limits), not a cached or shared
 * one. `hint: 'token'`: the refused Basic password had the shape of a personal access token (the 401 says how to
 * send one).
 */
export type AuthOutcome = { ok: true; user: AuthUser; verified?: boolean } | { ok: false; reason: 'failed' | 'denied'; hint?: 'token' };

export type { LoginAudit, LoginObserver, PasswordOutcome } from './password-logins.ts';
export { UNKNOWN_ADDRESS } from './password-logins.ts';

export interface AuthenticatorOptions {
  store: AuthStore;
  hasher: PasswordHasher;
  changes: ChangeFeed;
  maxAttempts: number;
  /** 0: locked until an administrator resets the lock. */
  lockoutMinutes: number;
  /** Failed logins per client address (LOGIN_FAILURES_PER_ADDRESS); undefined: no such limit. */
  addressLimit?: AddressLimit | undefined;
  /** How client addresses are counted (CLIENT_IPV6_PREFIX); default: IPv6 by /64. */
  clientKeys?: ClientKeys | undefined;
  /** The growing delay of a name guessed from many addresses; undefined: none. */
  delay?: LoginDelaySettings | undefined;
  /** How a delay is waited (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
  log?: Logger;
}

/**
 * The rules of logging in, independent of HTTP: the lock per name and client address, the growing delay of a name
 * guessed from many addresses, the slow hash, tokens (also as a Basic password), and the cache that keeps the hot
 * path free of database work. Unknown user, inactive user and wrong password all answer the same 'failed', after
 * the same work.
 *
 * A guess is counted as a failure (for its name and address in the database, for its address in memory) before
 * its hash runs, and a success takes that back: so N concurrent guesses are counted and locked exactly as N
 * sequential ones, and nothing is evaluated once the name is locked for that address. A lock holds only for the
 * address that earned it: the owner's logins from elsewhere are still checked. A failure moves that name's login
 * topic, and a cached credential of that name is checked against the database again (its address's lock, no hash)
 * before its next use; nothing else is evicted. Concurrent checks of one Basic header share one check.
 */
export class Authenticator {
  /** Emptied by every directory change in the cluster before its next lookup (see BoundedCache). */
  readonly cache: AuthCache;
  /** Set by the metrics when they are on. */
  observer: LoginObserver | undefined;
  /** Set by the composition root: the event log's entries for locks and delays. */
  audit: LoginAudit | undefined;
  readonly keys: ClientKeys;
  private readonly gate: LoginGate;
  private readonly tokens: TokenLogins;
  /** Checks of a Basic header under way, by cache key, that a concurrent request with that header joins. */
  private readonly checks = new Map<string, Promise<AuthOutcome>>();
  private readonly passwords: PasswordLogins;

  constructor(private readonly opts: AuthenticatorOptions) {
    this.cache = new AuthCache(opts.changes);
    this.keys = opts.clientKeys ?? new ClientKeys();
    this.gate = new LoginGate(new AddressThrottle(opts.addressLimit), opts.hasher.pool, (reason) => this.observer?.loginLimited?.(reason));
    this.tokens = new TokenLogins({ store: opts.store, cache: this.cache, changes: opts.changes, gate: this.gate, log: opts.log });
    this.passwords = new PasswordLogins(opts, this.cache, this.gate, { observer: () => this.observer, audit: () => this.audit });
  }

  /** The cache key of a whole Basic header from a client address: computed once per request by the strategy. */
  basicKey(header: string, client?: string): string {
    return this.cache.basicKey(header, this.keys.of(client) ?? UNKNOWN_ADDRESS);
  }

  /** How long a lock lasts (0: until it is reset), for the answer that tells a locked-out person. */
  get lockoutMinutes(): number {
    return this.opts.lockoutMinutes;
  }

  /** The user of a Basic header verified shortly before from the same address, without I/O; undefined when it must be checked. */
  cachedBasic(header: string, key = this.basicKey(header)): AuthUser | undefined {
    const entry = this.opts.changes.live ? this.cache.basic.get(key) : undefined;
    if (!entry) return undefined;
    if (entry.token) return this.tokens.admit(entry.token);
    if (!current(entry)) return undefined;
    this.passwords.refreshAhead(key, entry);
    return entry.user;
  }

  /**
   * A whole `Authorization: Basic …` value; a cached success is found before the header is even decoded. `client`:
   * the address the request came from, for its lock and the failed logins per address. A password that is a
   * personal access token of the user logs in as that token.
   */
  async basicHeader(header: string, basicKey?: string, client?: string): Promise<AuthOutcome> {
    const key = basicKey ?? this.basicKey(header, client);
    // peek: the lookup was counted by cachedBasic, which the middleware asks first. While the feed is down the
    // entry is not trusted, but its verified hash still spares the slow hash (below).
    const cached = this.cache.basic.peek(key);
    const user = cached && this.opts.changes.live && (cached.token ? this.tokens.admit(cached.token) : current(cached) ? cached.user : undefined);
    if (user) return { ok: true, user };
    const credentials = parseBasicAuthorization(header);
    let outcome: AuthOutcome;
    if (!credentials) outcome = { ok: false, reason: 'failed' };
    else {
      let check = this.checks.get(key);
      const joined = check !== undefined;
      if (!check) {
        check = this.basicCheck(credentials, key, cached?.token ? undefined : cached, client).finally(() => this.checks.delete(key));
        this.checks.set(key, check);
      }
      outcome = await check;
      // Only the request that ran the check verified a password: those that joined it waited, nothing more.
      if (joined && outcome.ok && outcome.verified) outcome = { ok: true, user: outcome.user };
    }
    if (!outcome.ok) this.observer?.loginRefused('basic', outcome.reason);
    return outcome;
  }

  /** A Basic credential: as a token of its user when the password is one, else as a password. */
  private async basicCheck(credentials: BasicCredentials, key: string, cached: BasicEntry | undefined, client: string | undefined): Promise<AuthOutcome> {
    const address = this.keys.of(client);
    const token = await this.tokens.asPassword(credentials.username, credentials.password, address);
    if (token) {
      this.cache.basic.set(key, { user: token.user, storedHash: '', username: credentials.username, address: address ?? UNKNOWN_ADDRESS, mark: () => 0, seen: 0, checkedAt: Date.now(), token });
      return { ok: true, user: token.user };
    }
    const outcome = await this.passwords.check(credentials, key, cached, address);
    if (outcome.ok) return outcome;
    return isTokenShaped(credentials.password) && outcome.reason === 'failed' ? { ...outcome, hint: 'token' } : outcome;
  }

  /**
   * A username and password from a sign-in form (or the current password of a password change): exactly the rules
   * of Basic (the lock per name and address, counting, the same answer for an unknown name and a wrong password),
   * always with the slow hash, and nothing is cached. A token is not a password here. `client`: the client's
   * address, or another key its failures are counted under (own-password.service.ts).
   */
  async password(username: string, password: string, client?: string): Promise<PasswordOutcome> {
    return this.passwords.check({ username, password }, undefined, undefined, this.keys.of(client));
  }

  /**
   * For a shortcut that answers only when all its lookups hit: the user of a Basic or Bearer header that
   * `cachedBasic` / `cachedBearer` would answer from memory, found without counting the lookup and without
   * recording a token's use; `confirm()` then does both, exactly as those would have. The scheme is chosen as
   * authenticate.ts chooses it. Undefined whenever the middleware would run a strategy.
   */
  peekCachedHeader(header: string, client?: string): { user: AuthUser; confirm(): void } | undefined {
    if (!this.opts.changes.live) return undefined;
    if (/^bearer /i.test(header)) {
      const token = parseBearerAuthorization(header);
      const entry = token === undefined ? undefined : this.cache.bearer.peek(hashToken(token));
      if (!entry || !this.tokens.validWithoutIo(entry)) return undefined;
      return {
        user: entry.user,
        confirm: () => {
          this.cache.bearer.countHit();
          this.tokens.admit(entry);
        },
      };
    }
    if (/^basic /i.test(header)) {
      const key = this.basicKey(header, client);
      const entry = this.cache.basic.peek(key);
      if (!entry || (entry.token ? !this.tokens.validWithoutIo(entry.token) : !current(entry))) return undefined;
      return {
        user: entry.user,
        confirm: () => {
          this.cache.basic.countHit();
          if (entry.token) this.tokens.admit(entry.token);
          else this.passwords.refreshAhead(key, entry);
        },
      };
    }
    return undefined;
  }

  /** The user of a token found in the cache and still valid, without any I/O; undefined when it must be looked up. */
  cachedBearer(rawToken: string, tokenHash = hashToken(rawToken)): AuthUser | undefined {
    const entry = this.tokens.cached(tokenHash, true);
    return entry && this.tokens.admit(entry);
  }

  /**
   * A token the cache did not answer. `client`: the address it came from. A wrong token counts as a failed login
   * of that address (LOGIN_FAILURES_PER_ADDRESS, shared with wrong passwords), so a client guessing tokens is
   * refused (429) after the same number of failures, before the database is read; valid tokens that the cache
   * knows go on from that address, as cached Basic credentials do.
   */
  async bearer(rawToken: string, tokenHash = hashToken(rawToken), client?: string): Promise<AuthOutcome> {
    const address = this.keys.of(client);
    const entry: BearerEntry | undefined = await this.tokens.find(tokenHash, address);
    const user = entry && this.tokens.admit(entry);
    return user ? { ok: true, user } : this.bearerFailed(address);
  }

  /** A refused token: counted for its address (the 429 when that was the last one the window allows). */
  private bearerFailed(address: string | undefined): AuthOutcome {
    this.observer?.loginRefused('bearer', 'failed');
    // A failure's place is never given back; the function admitGuess answers (for a success) is not kept.
    this.gate.countTokenFailure(address);
    return { ok: false, reason: 'failed' };
  }

  /** Names locked now for at least one address (for the metrics): one count query. */
  lockedAccounts(): Promise<number> {
    return this.passwords.lockedAccounts();
  }
}

/** Whether no failed login of the entry's name (nor a reconnect of the feed) happened since it was checked. */
const current = (entry: BasicEntry) => entry.mark() === entry.seen;
