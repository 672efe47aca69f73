import { tooManyFailedLogins } from '../http/platform.errors.ts';

export interface AddressLimit {
  /** Failed logins one address may have in a window. */
  failures: number;
  /** Length of the window, from the first failure in it. */
  minutes: number;
}

/** At most this many addresses are remembered; the least recently failing are forgotten first. */
const MAX_ADDRESSES = 100_000;

interface Window {
  startedAt: number;
  /** Failures in the window, counting the checks still running (each is counted before its hash). */
  failures: number;
}

/**
 * Failed logins per client address, across user names (LOGIN_FAILURES_PER_ADDRESS): the per-name lockout
 * stops guessing one account's password, this stops trying one password against many accounts (spraying).
 * A check that needs the slow hash takes a place before it starts (`reserve`), so concurrent guesses from one
 * address count as sequential ones do; a success gives its place back. Kept in this process's memory (a map
 * lookup, no database work for a refused request): with several nodes behind a balancer an address may fail
 * up to the limit on each of them (docs/configuration.md).
 */
export class AddressThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: AddressLimit | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Throws the 429 when `address` has used up its window, without taking a place: the first step of a login,
   * before any database read or hash, so a flood of guesses from a throttled address costs a map lookup each.
   */
  check(address: string | undefined): void {
    const limit = this.limit;
    if (!limit || address === undefined) return;
    const w = this.windows.get(address);
    if (!w) return;
    const now = this.now();
    if (now - w.startedAt >= limit.minutes * 60_000) this.windows.delete(address);
    else if (w.failures >= limit.failures) throw tooManyFailedLogins(Math.max(1, Math.ceil((w.startedAt + limit.minutes * 60_000 - now) / 1000)));
  }

  /**
   * Whether `address` has failures (or checks under way) in its current window: a client already guessing. A
   * login of such an address refused because the password checks are busy (503) counts as a failure too (see
   * `countFailure`), so a flood from one address is throttled after the same number of attempts whether or not
   * the server had the time to check them; a client without failures is never charged for the server being busy.
   */
  failing(address: string | undefined): boolean {
    const limit = this.limit;
    if (!limit || address === undefined) return false;
    const w = this.windows.get(address);
    return w !== undefined && w.failures > 0 && this.now() - w.startedAt < limit.minutes * 60_000;
  }

  /** Counts one failure of a failing address (`failing`) without a check; never throws, never opens a window. */
  countFailure(address: string | undefined): void {
    if (address === undefined || !this.failing(address)) return;
    this.windows.get(address)!.failures++;
  }

  /**
   * Takes a place for one check from `address`: answers the function that gives it back (for a success), or
   * throws the 429 when the address has used up its window. No limit or no address: nothing is counted.
   */
  reserve(address: string | undefined): () => void {
    const limit = this.limit;
    if (!limit || address === undefined) return () => undefined;
    const now = this.now();
    let w = this.windows.get(address);
    if (w && now - w.startedAt >= limit.minutes * 60_000) {
      this.windows.delete(address);
      w = undefined;
    }
    if (w && w.failures >= limit.failures) {
      throw tooManyFailedLogins(Math.max(1, Math.ceil((w.startedAt + limit.minutes * 60_000 - now) / 1000)));
    }
    if (!w) {
      w = { startedAt: now, failures: 0 };
      if (this.windows.size >= MAX_ADDRESSES) this.windows.delete(this.windows.keys().next().value as string);
    } else {
      // Most recently failing last, so the map's first entry is the one to forget.
      this.windows.delete(address);
    }
    this.windows.set(address, w);
    w.failures++;
    const counted = w;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      counted.failures--;
      if (counted.failures <= 0 && this.windows.get(address) === counted) this.windows.delete(address);
    };
  }
}
