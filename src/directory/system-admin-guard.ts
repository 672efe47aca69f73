// The rule that keeps roles from being climbed (host-api.md "Roles and built-in groups"): only a system
// administrator changes the membership of `system-administrators`, or changes, deletes, or lists and revokes the
// tokens of a system administrator. Administrators get 403. The rule is decided inside the transaction of the
// write it guards, after taking a lock on the group's row, so that it cannot race with a promotion or demotion.
import type { Knex } from 'knex';
import { BUILTIN_GROUPS, groupsRepository as groups } from './groups.repository.ts';
import { systemAdministratorOnly } from './host-api.errors.ts';

/**
 * Who asks for a directory change: a signed-in user (its id is checked against the group in the transaction),
 * or a plain name for the system itself (the command line, start-up, an import), which the rule does not limit.
 */
export type Actor = string | { id: number; name: string };

export const actorName = (actor: Actor): string => (typeof actor === 'string' ? actor : actor.name);

// The group's row is locked (groupsRepository.lockSystemAdministrators): `update` for a change of its membership,
// `share` for a change that depends on who is in it. A membership change therefore waits for (or is waited for
// by) every check, and a check that waited reads the membership in a statement of its own after the lock, so it
// sees the change (READ COMMITTED gives each statement a fresh snapshot).

/** 403 unless the actor may change, delete or see the tokens of the user `targetId` (inside `trx`). */
export async function assertMayManageUser(trx: Knex, actor: Actor, targetId: number): Promise<void> {
  if (typeof actor === 'string' || actor.id === targetId) return;
  const groupId = await groups.lockSystemAdministrators(trx, 'share');
  if (groupId === undefined) return;
  const members = await groups.membersAmong(trx, groupId, [actor.id, targetId]);
  if (members.has(targetId) && !members.has(actor.id)) throw systemAdministratorOnly();
}

/** 403 unless the actor may change the membership of the group `groupName` (inside `trx`). */
export async function assertMayChangeMembership(trx: Knex, actor: Actor, groupName: string): Promise<void> {
  if (typeof actor === 'string' || groupName.toLowerCase() !== BUILTIN_GROUPS.systemAdministrators) return;
  const groupId = await groups.lockSystemAdministrators(trx, 'update');
  if (groupId === undefined) return;
  const members = await groups.membersAmong(trx, groupId, [actor.id]);
  if (!members.has(actor.id)) throw systemAdministratorOnly();
}
