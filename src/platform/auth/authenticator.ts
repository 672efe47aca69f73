import type { AuthStore, AuthUser } from './auth-user.ts';
import type { BasicCredentials } from './basic-credentials.ts';
import { CredentialCache } from './credential-cache.ts';
import { PasswordHasher } from './password-hasher.ts';
import { hashToken } from './tokens.ts';

export type AuthOutcome = { ok: true; user: AuthUser } | { ok: false; reason: 'failed' | 'denied' };

export interface AuthenticatorOptions {
  store: AuthStore;
  hasher: PasswordHasher;
  maxAttempts: number;
  /** 0: locked until an administrator resets the lock. */
  lockoutMinutes: number;
  cache?: CredentialCache;
}

const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/**
 * The rules of logging in, independent of HTTP: lockout, the slow hash and its cache, token expiry.
 * Unknown user, inactive user and wrong password all answer the same 'failed', after the same work.
 */
export class Authenticator {
  readonly cache: CredentialCache;

  constructor(private readonly opts: AuthenticatorOptions) {
    this.cache = opts.cache ?? new CredentialCache();
  }

  async basic({ username, password }: BasicCredentials): Promise<AuthOutcome> {
    const { store, hasher, maxAttempts } = this.opts;
    const login = await store.findLogin(username);
    if (this.isLocked(login.lockedAt)) return { ok: false, reason: 'denied' };
    const user = login.user;
    let valid = false;
    if (user && this.cache.matches(user.name, password, user.passwordHash)) {
      valid = true;
    } else if (user) {
      valid = await hasher.verify(password, user.passwordHash);
      if (valid) this.cache.remember(user.name, password, user.passwordHash);
    } else {
      await hasher.burn(password);
    }
    if (!valid || !user || !user.active) {
      await store.recordFailure(username, maxAttempts);
      return { ok: false, reason: 'failed' };
    }
    if (login.failures > 0) await store.clearFailures(username);
    return {
      ok: true,
      user: { id: user.id, name: user.name, displayName: user.displayName, isAdmin: user.isAdmin, isSystemAdmin: user.isSystemAdmin, via: 'basic' },
    };
  }

  async bearer(rawToken: string): Promise<AuthOutcome> {
    const record = await this.opts.store.findToken(hashToken(rawToken));
    const now = Date.now();
    if (!record || !record.user.active || (record.expiresAt && record.expiresAt.getTime() <= now)) {
      return { ok: false, reason: 'failed' };
    }
    // Writing last_used_at on every request would double the database work of a hot path; once a minute is enough.
    if (!record.lastUsedAt || now - record.lastUsedAt.getTime() > TOKEN_TOUCH_INTERVAL_MS) {
      await this.opts.store.touchToken(record.tokenId);
    }
    const u = record.user;
    return { ok: true, user: { id: u.id, name: u.name, displayName: u.displayName, isAdmin: u.isAdmin, isSystemAdmin: u.isSystemAdmin, via: 'bearer' } };
  }

  private isLocked(lockedAt: Date | null): boolean {
    if (!lockedAt) return false;
    const minutes = this.opts.lockoutMinutes;
    return minutes === 0 || Date.now() - lockedAt.getTime() < minutes * 60_000;
  }
}
