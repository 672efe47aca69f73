import type { UserRow } from './users.repository.ts';

/** The actor of changes nobody signed in asked for: the command line, an import, a test. */
export const SYSTEM_ACTOR = 'system';

/** What the audit trail records of a user (never its password hash). */
export function userRecord(u: Pick<UserRow, 'display_name' | 'email' | 'active'>) {
  return { displayName: u.display_name, emailAddress: u.email, active: u.active };
}
