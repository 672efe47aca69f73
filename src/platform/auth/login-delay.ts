/**
 * The growing delay of a name that is being guessed from many addresses (issue 44). The lock per name and address
 * stops one address; a name's failures from all addresses together beyond `afterFailures` make each further check
 * of that name wait, doubling from one second up to `maxSeconds`, so guessing from many addresses stays slow while
 * the right password still gets in (later). A remembered credential is not a check and does not wait.
 */
export interface LoginDelaySettings {
  /** LOGIN_DELAY_AFTER_FAILURES: failures of a name, from all addresses, that are checked without delay; 0: none wait. */
  afterFailures: number;
  /** LOGIN_DELAY_MAX_SECONDS: the longest wait of one check. */
  maxSeconds: number;
}

/** How long a check of a name with `failures` (from all addresses) waits: 0 up to the threshold, then 1 s, 2 s, 4 s … */
export function loginDelayMs(failures: number, settings: LoginDelaySettings | undefined): number {
  if (!settings || settings.afterFailures <= 0) return 0;
  const beyond = failures - settings.afterFailures;
  if (beyond <= 0) return 0;
  // 2^30 s is far beyond any maximum; the exponent is capped so the number stays exact.
  return Math.min(settings.maxSeconds, 2 ** Math.min(beyond - 1, 30)) * 1000;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
