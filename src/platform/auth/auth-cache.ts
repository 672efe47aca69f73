import { createHmac, randomBytes } from 'node:crypto';
import type { DirectoryUser } from './auth-user.ts';

interface BasicEntry {
  user: DirectoryUser;
  /** The stored hash the password was verified against. */
  storedHash: string;
  expires: number;
}

interface BearerEntry {
  user: DirectoryUser;
  tokenId: number;
  tokenExpiresAt: Date | null;
  lastUsedAt: Date | null;
  expires: number;
}

/**
 * Verified credentials for a short time, so the hot path needs neither the slow hash nor a database
 * round trip. Entries are only trusted while the change feed is live (every directory change in the cluster
 * clears this cache); otherwise the authenticator re-reads the user and only skips scrypt when the stored
 * hash is still the one verified. Keys are HMACs under a per-process secret, never passwords or tokens.
 */
export class AuthCache {
  private readonly secret = randomBytes(32);
  private readonly basicEntries = new Map<string, BasicEntry>();
  private readonly bearerEntries = new Map<string, BearerEntry>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  basicKey(username: string, password: string): string {
    return createHmac('sha256', this.secret).update(username.toLowerCase()).update('\0').update(password).digest('base64');
  }

  getBasic(key: string): BasicEntry | undefined {
    return this.fresh(this.basicEntries, key);
  }

  setBasic(key: string, user: DirectoryUser, storedHash: string): void {
    this.put(this.basicEntries, key, { user, storedHash, expires: Date.now() + this.ttlMs });
  }

  getBearer(tokenHash: string): BearerEntry | undefined {
    return this.fresh(this.bearerEntries, tokenHash);
  }

  setBearer(tokenHash: string, entry: Omit<BearerEntry, 'expires'>): BearerEntry {
    const stored = { ...entry, expires: Date.now() + this.ttlMs };
    this.put(this.bearerEntries, tokenHash, stored);
    return stored;
  }

  clear(): void {
    this.basicEntries.clear();
    this.bearerEntries.clear();
  }

  private fresh<T extends { expires: number }>(map: Map<string, T>, key: string): T | undefined {
    const entry = map.get(key);
    if (entry && entry.expires < Date.now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }

  private put<T>(map: Map<string, T>, key: string, value: T): void {
    if (map.size >= this.maxEntries && !map.has(key)) {
      // Insertion order: dropping the oldest entry is enough for a short-lived cache.
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(key, value);
  }
}
