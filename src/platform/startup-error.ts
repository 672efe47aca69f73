/**
 * A failure a person can cause and fix (a bad setting, a busy port, an unreachable database, a missing file).
 * Its message is one line that names the cause and the fix; the command line prints only that line
 * (the stack too with LOG_LEVEL=debug) and exits with status 1.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
