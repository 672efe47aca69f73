import type { Knex } from 'knex';
import type { DeletedPrincipal, DirectoryHookSet } from '../../directory/directory-hooks.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import type { EventLog } from '../maintenance/event-log.ts';
import { grantsRepository, type PrincipalType } from './grants.repository.ts';

/**
 * When a user or a group is deleted, its grants go in the same transaction, so a later user or group of the
 * same name never inherits them (grants are kept by name, as the original kept them). The host event and
 * the grants it removed are one event-log entry, in that transaction too.
 */
export function grantCleanupHooks(eventLog: EventLog): DirectoryHookSet {
  const cleanup = (type: PrincipalType) => async (trx: Knex.Transaction, deleted: DeletedPrincipal) => {
    const removed = await grantsRepository.removePrincipalGrants(trx, type, deleted.name);
    await eventLog.record(trx, {
      // The administrator who deleted it (`system`: the command line, an import).
      actor: deleted.actor ?? 'system',
      kind: `${type}.deleted`,
      target: { type, name: deleted.name },
      before: { grants: removed.map((g) => ({ fieldId: g.field_id, contextId: g.context_id })) },
      after: { grantsRemoved: removed.length },
    });
  };
  return { userDeleted: cleanup('user'), groupDeleted: cleanup('group'), announces: [TRACKER_TOPIC] };
}
