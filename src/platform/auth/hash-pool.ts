import { availableParallelism } from 'node:os';
import { loginBusy } from '../http/platform.errors.ts';

export interface HashPoolOptions {
  /** Hashes that run at once. Default: half the cores, at least one, so hashing never takes every core. */
  concurrency?: number;
  /** A hash that would wait longer than this to start is refused (`busy`) instead of queued (LOGIN_QUEUE_SECONDS). */
  maxWaitMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/** A burst of legitimate sign-ins waits its turn this long rather than being refused (issue 42). */
export const DEFAULT_MAX_WAIT_MS = 10_000;
/** What one hash is assumed to take until the pool has timed one (a login's or a new password's). */
const ASSUMED_HASH_MS = 250;

/**
 * A bounded pool for password hashes. scrypt runs on libuv's threads, which by themselves would take as many
 * hashes as arrive and share every core between them: a flood of wrong passwords then slows every other
 * request (cached credentials included), and each login waits behind all the others. Here at most
 * `concurrency` hashes run; the rest wait in order, and a hash whose expected wait (those ahead of it times
 * the recent time of one hash) is over `maxWaitMs` is refused at once, with the time to come back. A caller may
 * ask for a shorter bound (`admit(ms)`): logins from an address that is failing are refused sooner (login-gate.ts).
 */
export class HashPool {
  readonly concurrency: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private running = 0;
  private readonly queue: (() => void)[] = [];
  /** Recent time of one hash (exponential average), 0 before the first one. */
  private averageMs = 0;

  constructor(opts: HashPoolOptions = {}) {
    this.concurrency = Math.max(1, opts.concurrency ?? Math.floor(availableParallelism() / 2));
    this.maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.now = opts.now ?? (() => performance.now());
  }

  /**
   * How long a hash asked for now would wait before it starts (an estimate: those ahead of it, in rounds of
   * `concurrency`, times the recent time of one hash). Until a hash was timed, one is assumed to take 0.25 s, so
   * a burst at start-up queues (a bounded number) instead of being refused.
   */
  expectedWaitMs(): number {
    const ahead = this.running + this.queue.length - this.concurrency + 1;
    if (ahead <= 0) return 0;
    return Math.ceil(ahead / this.concurrency) * (this.averageMs === 0 ? ASSUMED_HASH_MS : this.averageMs);
  }

  /** Learns the time of a hash made outside the pool (a new password's, of the same cost). */
  observe(tookMs: number): void {
    this.averageMs = this.averageMs === 0 ? tookMs : this.averageMs * 0.8 + tookMs * 0.2;
  }

  /** Throws the 503 `LOGIN_BUSY` error when a hash asked for now would wait longer than allowed (`maxWaitMs`, or less). */
  admit(maxWaitMs = this.maxWaitMs): void {
    const wait = this.expectedWaitMs();
    if (wait > Math.min(maxWaitMs, this.maxWaitMs)) throw loginBusy(Math.max(1, Math.ceil(wait / 1000)));
  }

  /**
   * Runs `hash` when a place is free: refused with `admit`'s error when that would take too long, unless it
   * was `admitted` before (a login admitted, then counted, is never refused after it was counted).
   */
  async run<T>(hash: () => Promise<T>, admitted = false): Promise<T> {
    if (!admitted) this.admit();
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    const started = this.now();
    try {
      return await hash();
    } finally {
      this.observe(this.now() - started);
      // The place passes straight to the next in line (running stays the same), or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
