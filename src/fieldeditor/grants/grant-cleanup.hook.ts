import type { DirectoryHooks } from '../../directory/directory-hooks.ts';
import { TRACKER_TOPIC } from '../../tracker/tracker-write.ts';
import { grantsRepository } from './grants.repository.ts';

/**
 * When a user or a group is deleted, its grants go in the same transaction, so a later user or group of the
 * same name never inherits them (grants are kept by name, as the original kept them).
 */
export function registerGrantCleanup(hooks: DirectoryHooks): void {
  const announces = [TRACKER_TOPIC];
  hooks.onUserDeleted(async (trx, user) => void (await grantsRepository.removePrincipal(trx, 'user', user.name)), { announces });
  hooks.onGroupDeleted(async (trx, group) => void (await grantsRepository.removePrincipal(trx, 'group', group.name)), { announces });
}
