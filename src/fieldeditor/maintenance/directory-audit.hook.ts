import type { ChangeHook } from '../../directory/directory-hooks.ts';
import type { EventLog } from './event-log.ts';

/**
 * The event log is the audit trail of the directory too: every change of a user, group, membership or token
 * (directory-hooks.ts, `DirectoryChange`) is one entry, written in the change's transaction. The directory
 * hands over names and changed members only, never a password or a token's value.
 */
export function directoryAuditHook(eventLog: EventLog): ChangeHook {
  return async (trx, change) => {
    await eventLog.record(trx, {
      actor: change.actor,
      kind: change.kind,
      target: change.target,
      before: change.before ?? null,
      after: change.after ?? null,
    });
  };
}
