// What an import from elsewhere (src/migration/) may do to the directory, inside the transaction of the unit it
// imports: find people by name, create the ones the source names (without a usable password, in the `users`
// group, deactivated when the source says so) and add group members. The directory keeps its own repositories;
// the migration writes through this port only (the dependency rule migration-writes-through-importer-exports).
import type { Knex } from 'knex';
import { usersRepository } from './users.repository.ts';
import { BUILTIN_GROUPS, groupsRepository } from './groups.repository.ts';

/**
 * A person of the source, as an import creates it: the users repository's insert (its `passwordHash` one that no
 * password matches, so an administrator sets a password before the person can log in), and whether it is active.
 */
export type ImportedUser = Parameters<typeof usersRepository.insert>[1] & { active: boolean };

export const directoryImportPort = {
  /** The user of that name, without regard to case. */
  async findUserId(trx: Knex, name: string): Promise<number | undefined> {
    return (await usersRepository.findByName(trx, name))?.id;
  },

  /** Creates the user, deactivated when the source's is, and puts it in the `users` group; answers its id. */
  async createUser(trx: Knex, u: ImportedUser): Promise<number> {
    const { active, ...user } = u;
    const row = await usersRepository.insert(trx, user);
    if (!active) await usersRepository.deactivate(trx, row.id);
    const everyone = await groupsRepository.findByName(trx, BUILTIN_GROUPS.users);
    if (everyone) await groupsRepository.addMember(trx, everyone.id, row.id);
    return row.id;
  },

  /** The group of that name (without regard to case), and whether it is one of this host's built-in role groups. */
  async findGroup(trx: Knex, name: string): Promise<{ id: number; builtin: boolean } | undefined> {
    const row = await groupsRepository.findByName(trx, name);
    return row && { id: row.id, builtin: row.builtin };
  },

  /** Creates a group; answers its id. */
  async createGroup(trx: Knex, name: string): Promise<{ id: number; builtin: boolean }> {
    const row = await groupsRepository.insert(trx, name);
    return { id: row.id, builtin: row.builtin };
  },

  /** Adds the member; false when it already was one. */
  addMember: (trx: Knex, groupId: number, userId: number): Promise<boolean> => groupsRepository.addMember(trx, groupId, userId),

  /** Of those users, the names of the ones whose password hash is this one (sorted). */
  namesWithPasswordHash: (trx: Knex, ids: readonly number[], hash: string): Promise<string[]> => usersRepository.namesWithPasswordHash(trx, ids, hash),
};
