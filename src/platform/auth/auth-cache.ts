import { hash, randomBytes } from 'node:crypto';
import { BoundedCache } from '../cache/bounded-cache.ts';
import type { ChangeFeed } from '../events/change-feed.ts';
import type { AuthUser } from './auth-user.ts';

export interface BasicEntry {
  /** Frozen and shared by every request it authenticates (no copy per request on the hot path). */
  user: AuthUser;
  /** The stored hash the password was verified against. */
  storedHash: string;
}

export interface BearerEntry {
  /** Frozen and shared by every request it authenticates. */
  user: AuthUser;
  tokenId: number;
  tokenExpiresAt: Date | null;
  lastUsedAt: Date | null;
}

const OPTIONS = { ttlMs: 60_000, maxEntries: 10_000 };

/** Topic of the change feed for anything that can change who may log in or with which rights. */
export const DIRECTORY_TOPIC = 'directory';

/**
 * Verified credentials for a short time, so the hot path needs neither the slow hash nor a database
 * round trip, not even decoding the header. The authenticator trusts entries only while the change feed is live (every directory change
 * in the cluster clears this cache); otherwise it re-reads the user and only skips scrypt when the stored
 * hash is still the one verified. Keys are hashes under a per-process secret, never passwords or tokens.
 */
export class AuthCache {
  private readonly secret = randomBytes(32).toString('base64');
  readonly basic: BoundedCache<string, BasicEntry>;
  readonly bearer: BoundedCache<string, BearerEntry>;

  /** With `changes`, every directory change anywhere in the cluster empties both before the next lookup. */
  constructor(changes?: ChangeFeed) {
    const feed = changes && { changes, topics: [DIRECTORY_TOPIC] };
    this.basic = new BoundedCache<string, BasicEntry>({ name: 'auth_basic', ...OPTIONS, feed });
    this.bearer = new BoundedCache<string, BearerEntry>({ name: 'auth_bearer', ...OPTIONS, feed });
  }

  /** Key of a whole Basic header: a secret-prefixed SHA-256, so memory never holds a decodable password. */
  basicKey(header: string): string {
    return hash('sha256', this.secret + header, 'base64');
  }

  clear(): void {
    this.basic.clear();
    this.bearer.clear();
  }
}
