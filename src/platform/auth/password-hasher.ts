import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HashPool } from './hash-pool.ts';

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export interface HashCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt setting that costs 16 MiB per hash (N=2^14, r=8, p=5): slow for attackers, kind to RAM. */
export const DEFAULT_COST: HashCost = { N: 2 ** 14, r: 8, p: 5 };

/** node:crypto's options for a hash at `cost`: its memory limit must hold the 128·N·r bytes scrypt uses, with room. */
export function scryptOptions({ N, r, p }: HashCost): ScryptOptions {
  return { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
}
const KEY_LEN = 32;

/**
 * Salted scrypt hashes stored as `scrypt$N$r$p$salt$hash` (base64), so the cost can be raised later
 * without invalidating existing hashes. Checks of a login (`verify`, `burn`) run in a bounded pool
 * (hash-pool.ts): one that would wait too long is refused with a 503 instead of queueing without end.
 */
export class PasswordHasher {
  /**
   * What `burn` checks against: a stored value of this cost with a random salt and key, built without
   * hashing, so the first unknown name costs exactly what a wrong password does (no hash made on first use).
   */
  private readonly dummy: string;
  /** Hashes started by `prepare`, each taken by the first `hash` of the same password. */
  private readonly prepared = new Map<string, Promise<string>>();
  readonly pool: HashPool;

  constructor(
    private readonly cost: HashCost = DEFAULT_COST,
    pool?: HashPool,
  ) {
    const { N, r, p } = cost;
    this.dummy = `scrypt$${N}$${r}$${p}$${randomBytes(16).toString('base64')}$${randomBytes(KEY_LEN).toString('base64')}`;
    this.pool = pool ?? new HashPool();
  }

  /**
   * Starts hashing `password` now, on the thread pool, for a `hash` call that comes later: the command line
   * knows the password before it has loaded the database code and opened the database, and hashing
   * meanwhile takes the hash's 0.2 s off `user add` and `user passwd`. A failed hash is reported by `hash`.
   */
  prepare(password: string): void {
    if (this.prepared.has(password)) return;
    const pending = this.compute(password);
    pending.catch(() => undefined);
    this.prepared.set(password, pending);
  }

  hash(password: string): Promise<string> {
    const pending = this.prepared.get(password);
    if (pending === undefined) return this.compute(password);
    // A salt is used once: a second hash of the same password gets a new one.
    this.prepared.delete(password);
    return pending;
  }

  private async compute(password: string): Promise<string> {
    const salt = randomBytes(16);
    const { N, r, p } = this.cost;
    const started = performance.now();
    const key = await scrypt(password, salt, KEY_LEN, scryptOptions(this.cost));
    // The pool learns what a hash of this cost takes here, before its first login (the bootstrap's, a new user's).
    this.pool.observe(performance.now() - started);
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  /**
   * Whether `password` matches `stored`; in the pool, which throws its 503 when the wait would be too long,
   * unless the caller `admitted` it already (`pool.admit()`) before counting the attempt.
   */
  verify(password: string, stored: string, admitted = false): Promise<boolean> {
    return this.pool.run(() => this.check(password, stored), admitted);
  }

  private async check(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
    const expected = Buffer.from(parts[5] ?? '', 'base64');
    // A value that can match no password (a user imported without one, issue 31) still costs a whole check,
    // so the time of a refusal does not tell that such a user exists.
    if (parts.length !== 6 || parts[0] !== 'scrypt' || !N || !r || !p || expected.length === 0) {
      await this.check(password, this.dummy);
      return false;
    }
    const salt = Buffer.from(parts[4]!, 'base64');
    const key = await scrypt(password, salt, expected.length, scryptOptions({ N, r, p }));
    return timingSafeEqual(key, expected);
  }

  /**
   * Spends the same time as a real check (the same scrypt at this cost, in the same pool), so an unknown
   * username cannot be told from a wrong password.
   */
  async burn(password: string, admitted = false): Promise<void> {
    await this.verify(password, this.dummy, admitted);
  }
}
