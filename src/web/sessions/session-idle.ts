/**
 * The idle limit of web sessions. Last use is written at most once per `touchIntervalMs` (each write costs
 * a statement): a tenth of the limit, at most 30 s. The stored last use can so be up to that much older than
 * the real one, so the store keeps a session for that much longer than the limit after its stored last use
 * (`storedIdleMs`): a session used within its idle limit never ends on idleness, and one left alone ends at
 * most one interval after the limit (before, writes came every 60 s and the limit counted from them, so a busy
 * session could end up to a minute early).
 */
export function touchIntervalMs(idleMinutes: number): number {
  return Math.min(30_000, (idleMinutes * 60_000) / 10);
}

/** How long after its stored last use a session ends. */
export function storedIdleMs(idleMinutes: number): number {
  return idleMinutes * 60_000 + touchIntervalMs(idleMinutes);
}
