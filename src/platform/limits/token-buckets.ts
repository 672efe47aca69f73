/**
 * Token buckets by key, for the rate limits (rate-limiter.ts): a bucket holds at most `burst` tokens, refills
 * at `perMs` tokens a millisecond, and a request takes one. A bucket is created full on a key's first request
 * and refilled lazily when the key comes again (no timers); a full bucket is the same as no bucket, so the
 * table forgets full ones when it grows, and the oldest ones when an attacker with many keys keeps them busy.
 * Nothing here allocates on a key's later requests: the hot path is one Map lookup and a few multiplications.
 */
export interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms, the limiter's clock). */
  at: number;
}

/** Keys a table keeps before it forgets: about 100 bytes each. */
const DEFAULT_MAX_KEYS = 100_000;

export class BucketTable<K> {
  private readonly buckets = new Map<K, Bucket>();

  constructor(private readonly maxKeys = DEFAULT_MAX_KEYS) {}

  get size(): number {
    return this.buckets.size;
  }

  /** The key's bucket, refilled up to `now` (created full on first use). Take a token with `bucket.tokens -= 1`. */
  refill(key: K, now: number, perMs: number, burst: number): Bucket {
    let b = this.buckets.get(key);
    if (b === undefined) {
      if (this.buckets.size >= this.maxKeys) this.forget(now, perMs, burst);
      b = { tokens: burst, at: now };
      this.buckets.set(key, b);
      return b;
    }
    const elapsed = now - b.at;
    // Also when the share shrank (more nodes): never more than the bucket holds now.
    b.tokens = Math.min(burst, elapsed > 0 ? b.tokens + elapsed * perMs : b.tokens);
    if (elapsed > 0) b.at = now;
    return b;
  }

  /** Forgets the buckets that are full by now; if that frees less than a quarter, the oldest created too. */
  private forget(now: number, perMs: number, burst: number): void {
    for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * perMs >= burst) this.buckets.delete(key);
    let excess = this.buckets.size - Math.floor((this.maxKeys * 3) / 4);
    for (const key of this.buckets.keys()) {
      if (excess-- <= 0) break;
      this.buckets.delete(key);
    }
  }
}
