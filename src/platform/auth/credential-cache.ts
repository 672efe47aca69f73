import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Remembers, for a short time, that a username and password matched a given stored hash, so Basic auth
 * does not run scrypt on every request. An entry only counts while the user's current stored hash is the
 * same one it was verified against: a changed password or a deleted user stops working at once, on every
 * node, because the stored hash is read from the database on each request anyway.
 * Keys are HMACs under a per-process secret, never the password itself.
 */
export class CredentialCache {
  private readonly secret = randomBytes(32);
  private readonly entries = new Map<string, { storedHash: Buffer; expires: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  private key(username: string, password: string): string {
    return createHmac('sha256', this.secret).update(username).update('\0').update(password).digest('base64');
  }

  matches(username: string, password: string, storedHash: string): boolean {
    const k = this.key(username, password);
    const entry = this.entries.get(k);
    if (!entry) return false;
    if (entry.expires < Date.now()) {
      this.entries.delete(k);
      return false;
    }
    const current = Buffer.from(storedHash);
    return current.length === entry.storedHash.length && timingSafeEqual(current, entry.storedHash);
  }

  remember(username: string, password: string, storedHash: string): void {
    if (this.entries.size >= this.maxEntries) {
      // Map keeps insertion order: dropping the oldest entry is enough for a short-lived cache.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(this.key(username, password), { storedHash: Buffer.from(storedHash), expires: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}
