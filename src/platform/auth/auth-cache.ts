import { hash, randomBytes } from 'node:crypto';
import { BoundedCache } from '../cache/bounded-cache.ts';
import type { ChangeFeed } from '../events/change-feed.ts';
import { keyedTopic } from '../events/topic-counters.ts';
import type { AuthUser } from './auth-user.ts';

export interface BasicEntry {
  /** Frozen and shared by every request it authenticates (no copy per request on the hot path). */
  user: AuthUser;
  /** The stored hash the password was verified against. */
  storedHash: string;
  /** The login name as sent (its failed-login state is read again when `mark` moved). */
  username: string;
  /** The client key it was verified from (its lock is that address's): the cache key holds it too. */
  address: string;
  /** A personal access token sent as the Basic password: its entry decides (expiry, user), never a password. */
  token?: BearerEntry;
  /** The counter of the name's login topic (see `loginTopic`), and its value when the entry was checked. */
  mark: () => number;
  seen: number;
  /** When the entry was checked against the database (Date.now()), for the refresh ahead of expiry. */
  checkedAt: number;
}

export interface BearerEntry {
  /** Frozen and shared by every request it authenticates. */
  user: AuthUser;
  tokenId: number;
  tokenExpiresAt: Date | null;
  lastUsedAt: Date | null;
}

/** How long a verified credential is trusted without looking at the database again. */
export const AUTH_TTL_MS = 60_000;
const OPTIONS = { ttlMs: AUTH_TTL_MS, maxEntries: 10_000 };

/** Topic of the change feed for anything that can change who may log in or with which rights. */
export const DIRECTORY_TOPIC = 'directory';

/**
 * Topic of one login name's failed logins (a keyed topic: names of one bucket share it). A failure moves only
 * this counter, so it never empties the cache: the Basic entries of that name (and of the few names in its
 * bucket) are checked again against the database, without the slow hash, before their next use.
 */
export const loginTopic = (username: string) => keyedTopic('login', username.toLowerCase());

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
  /** Counter readers of the login topics, one per bucket, made once. */
  private readonly marks = new Map<string, () => number>();

  /** With `changes`, every directory change anywhere in the cluster empties both before the next lookup. */
  constructor(private readonly changes?: ChangeFeed) {
    const feed = changes && { changes, topics: [DIRECTORY_TOPIC] };
    this.basic = new BoundedCache<string, BasicEntry>({ name: 'auth_basic', ...OPTIONS, feed });
    this.bearer = new BoundedCache<string, BearerEntry>({ name: 'auth_bearer', ...OPTIONS, feed });
  }

  /**
   * Key of a whole Basic header from one client address: a secret-prefixed SHA-256, so memory never holds a
   * decodable password. The address is part of it, so a remembered credential never passes the lock of another
   * address (a lock holds per name and address).
   */
  basicKey(header: string, address = ''): string {
    return hash('sha256', `${this.secret}${address}\n${header}`, 'base64');
  }

  /** The reader of the counter of `username`'s login topic (it also moves when the feed reconnects). */
  loginMark(username: string): () => number {
    const topic = loginTopic(username);
    let mark = this.marks.get(topic);
    if (!mark) {
      mark = this.changes ? this.changes.counter([topic]) : () => 0;
      this.marks.set(topic, mark);
    }
    return mark;
  }

  clear(): void {
    this.basic.clear();
    this.bearer.clear();
  }
}
