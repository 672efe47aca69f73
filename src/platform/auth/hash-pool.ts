import { availableParallelism } from 'node:os';
import { loginBusy } from '../http/platform.errors.ts';

export interface HashPoolOptions {
  /** Hashes that run at once. Default: half the cores, at least one, so hashing never takes every core. */
  concurrency?: number;
  /** A hash that would wait longer than this to start is refused (`busy`) instead of queued. */
  maxWaitMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

const DEFAULT_MAX_WAIT_MS = 1000;

/**
 * A bounded pool for password hashes. scrypt runs on libuv's threads, which by themselves would take as many
 * hashes as arrive and share every core between them: a flood of wrong passwords then slows every other
 * request (cached credentials included), and each login waits behind all the others. Here at most
 * `concurrency` hashes run; the rest wait in order, and a hash whose expected wait (those ahead of it times
 * the recent time of one hash) is over `maxWaitMs` is refused at once, with the time to come back.
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

  /** How long a hash asked for now would wait before it starts (an estimate). */
  expectedWaitMs(): number {
    const ahead = this.running + this.queue.length - this.concurrency + 1;
    return ahead <= 0 ? 0 : Math.ceil(ahead / this.concurrency) * this.averageMs;
  }

  /** Throws the 503 `LOGIN_BUSY` error when a hash asked for now would wait longer than allowed. */
  admit(): void {
    const wait = this.expectedWaitMs();
    if (wait > this.maxWaitMs) throw loginBusy(Math.max(1, Math.ceil(wait / 1000)));
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
      const took = this.now() - started;
      this.averageMs = this.averageMs === 0 ? took : this.averageMs * 0.8 + took * 0.2;
      // The place passes straight to the next in line (running stays the same), or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
