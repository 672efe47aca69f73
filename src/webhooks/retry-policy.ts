/** Back-off of a failed attempt: doubling from `backoffMs`, at most an hour, with ±20 % jitter (spreads retries). */
export const MAX_BACKOFF_MS = 3_600_000;

export function backoffMs(attempts: number, firstMs: number, random: () => number = Math.random): number {
  const exact = Math.min(MAX_BACKOFF_MS, firstMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(exact * (0.8 + 0.4 * random()));
}

/**
 * What becomes of a delivery after a failed attempt: retried, unless it was first produced more than the retry
 * period ago, then given up (and its subscription marked failing).
 */
export function afterFailure(createdAt: Date, now: number, retrySeconds: number): 'retry' | 'failed' {
  return now - createdAt.getTime() >= retrySeconds * 1000 ? 'failed' : 'retry';
}
