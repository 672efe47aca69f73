import type { AddressThrottle } from './address-throttle.ts';
import type { HashPool } from './hash-pool.ts';

/**
 * How long a login from an address that already failed in its window may wait for its hash before it is refused
 * (503 LOGIN_BUSY) instead of queued. Other logins wait up to the pool's bound (LOGIN_QUEUE_SECONDS, 10 s), so a
 * burst of legitimate sign-ins waits its turn, while a client that is guessing cannot fill the queue.
 */
export const FAILING_MAX_WAIT_MS = 1000;

/** Why a login was refused before its hash, for the metrics. */
export type LimitReason = 'failed_logins_per_address' | 'hash_pool_busy';

/**
 * The checks in front of a password hash: the failed logins of the client address (AddressThrottle, 429) and the
 * capacity of the hash pool (503). `client` is always a client key (platform/http/client-key.ts).
 */
export class LoginGate {
  constructor(
    private readonly throttle: AddressThrottle,
    private readonly pool: HashPool,
    private readonly limited: (reason: LimitReason) => void,
  ) {}

  /** The address's 429 when it failed too often, without taking a place (a token's look-up, an early refusal). */
  check(client: string | undefined): void {
    this.step(() => this.throttle.check(client));
  }

  /**
   * A login may start its hash: refused (503) when the pool would keep it waiting too long, or (429) when its
   * address failed too often; answers what gives the address's place back (for a success).
   */
  admitGuess(client: string | undefined): () => void {
    const failing = this.throttle.failing(client);
    const release = this.step(() => this.throttle.reserve(client));
    try {
      this.admitHash(client, failing, false);
    } catch (err) {
      // Busy: the place stays taken (a failure) for an address that is failing already, else it is given back.
      if (!failing) release();
      throw err;
    }
    return release;
  }

  /** A refused token: one failure of its address, never given back (the 429 when it was the last its window allows). */
  countTokenFailure(client: string | undefined): void {
    this.step(() => this.throttle.reserve(client));
  }

  /**
   * `admitGuess` without taking a place: the checks a login makes before it reads anything, the address's first
   * (a throttled address is refused with its 429 whether or not the pool is busy).
   */
  refuseEarly(client: string | undefined): void {
    this.check(client);
    this.admitHash(client, this.throttle.failing(client), true);
  }

  /**
   * Throws the pool's 503 when the hash would wait too long: a second for a failing address, the pool's bound for
   * any other. `count`: a failing address is charged a failure for the refusal.
   */
  private admitHash(client: string | undefined, failing: boolean, count: boolean): void {
    try {
      this.pool.admit(failing ? FAILING_MAX_WAIT_MS : undefined);
    } catch (err) {
      this.limited('hash_pool_busy');
      if (count) this.throttle.countFailure(client);
      throw err;
    }
  }

  private step<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      this.limited('failed_logins_per_address');
      throw err;
    }
  }
}
