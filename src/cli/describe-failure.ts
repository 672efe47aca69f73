import { AppError } from '../platform/http/app-error.ts';
import { StartupError } from '../platform/startup-error.ts';

/**
 * The one line printed when a command or the server start fails: what went wrong and what to do about it.
 * Failures we foresaw (StartupError, an API rule such as "name taken") carry their own text; anything else
 * is a bug or an unforeseen environment, and says where to find more (the stack is printed with LOG_LEVEL=debug).
 */
export function describeFailure(err: unknown): string {
  if (err instanceof StartupError) return err.message;
  if (err instanceof AppError) {
    // A field whose message is the error's own (the API puts it in both places) is named, not repeated.
    const details = err.details.map((d) => (d.message === err.message ? d.name : `${d.name}: ${d.message}`)).join('; ');
    return details ? `${err.message} (${details})` : err.message;
  }
  const e = err as { code?: string; message?: string; syscall?: string; path?: string };
  if (e.code === 'EACCES' || e.code === 'EPERM') return `Permission denied${e.path ? ` on ${e.path}` : ''} (${e.code}): run as a user allowed to use it, or change the setting that points there.`;
  const text = (e.message ?? String(err)).split('\n')[0];
  return `Unexpected error: ${text}. Run again with LOG_LEVEL=debug for the details, and report it if it persists.`;
}
