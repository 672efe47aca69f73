import type { Knex } from 'knex';
import type { PasswordHasher } from '../platform/auth/password-hasher.ts';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { DIRECTORY_TOPIC } from '../platform/auth/auth-cache.ts';
import { usersRepository as users, type UserRow } from './users.repository.ts';
import { groupsRepository as groups, BUILTIN_GROUPS, type GroupRow } from './groups.repository.ts';
import { DirectoryHooks } from './directory-hooks.ts';
import { clearFailures } from './auth-failures.repository.ts';
import {
  builtinGroup,
  groupExists,
  groupNotFound,
  lastSystemAdministrator,
  notAMember,
  unknownGroups,
  userExists,
  userNotFound,
} from './host-api.errors.ts';

export interface UserWithGroups extends UserRow {
  groups: string[];
}

/**
 * Rules of the directory: users, groups and memberships. Every change is one transaction; a change that can
 * alter who may log in, or with which groups, is announced on the change feed before it is answered, so that
 * no node serves a cached credential or group list that is no longer true.
 */
export class DirectoryService {
  constructor(
    private readonly knex: Knex,
    private readonly hasher: PasswordHasher,
    private readonly changes: ChangeFeed,
    /** Work of other features inside user and group deletions (directory-hooks.ts). */
    readonly hooks = new DirectoryHooks(),
  ) {}

  private async announce(...more: string[]): Promise<void> {
    for (const topic of [DIRECTORY_TOPIC, ...more]) await this.changes.publish(topic);
  }

  async withGroups(user: UserRow): Promise<UserWithGroups> {
    return { ...user, groups: await groups.namesOfUser(this.knex, user.id) };
  }

  async getUser(name: string): Promise<UserWithGroups> {
    const user = await users.findByName(this.knex, name);
    if (!user) throw userNotFound();
    return this.withGroups(user);
  }

  async getUserById(id: number): Promise<UserWithGroups> {
    const user = await users.findById(this.knex, id);
    if (!user) throw userNotFound();
    return this.withGroups(user);
  }

  /** Creates a user in the `users` group, plus any extra groups (which must exist). */
  async createUser(input: { name: string; password: string; displayName?: string; emailAddress?: string; groups?: string[] }): Promise<UserWithGroups> {
    const passwordHash = await this.hasher.hash(input.password);
    return this.knex.transaction(async (trx) => {
      if (await users.findByName(trx, input.name)) {
        throw userExists();
      }
      const row = await users.insert(trx, {
        name: input.name,
        displayName: input.displayName || input.name,
        email: input.emailAddress ?? '',
        passwordHash,
      });
      const wanted = [BUILTIN_GROUPS.users, ...(input.groups ?? [])];
      const found = await groups.findByNames(trx, wanted);
      const missing = wanted.filter((g) => !found.some((f) => f.name.toLowerCase() === g.toLowerCase()));
      if (missing.length > 0) throw unknownGroups(missing);
      for (const g of found) await groups.addMember(trx, g.id, row.id);
      return { ...row, groups: found.map((g) => g.name).sort() };
    });
  }

  async setPassword(name: string, password: string): Promise<void> {
    const user = await users.findByName(this.knex, name);
    if (!user) throw userNotFound();
    await users.setPassword(this.knex, user.id, await this.hasher.hash(password));
    await this.announce();
  }

  /** Deletes a user with its memberships and tokens; the deletion hooks run in its transaction (the field editor drops grants). */
  async deleteUser(name: string): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const user = await users.findByName(trx, name);
      if (!user) throw userNotFound();
      await this.assertNotLastSystemAdmin(trx, user.id);
      await users.delete(trx, user.id);
      await this.hooks.userDeleted(trx, { id: user.id, name: user.name });
    });
    await this.announce(...this.hooks.announcedTopics);
  }

  async resetLockout(name: string): Promise<void> {
    await clearFailures(this.knex, name);
  }

  searchUsers(text: string, startAt: number, maxResults: number): Promise<UserRow[]> {
    return maxResults === 0 ? Promise.resolve([]) : users.search(this.knex, text, startAt, maxResults);
  }

  async createGroup(name: string): Promise<GroupRow> {
    return this.knex.transaction(async (trx) => {
      if (await groups.findByName(trx, name)) {
        throw groupExists();
      }
      return groups.insert(trx, name);
    });
  }

  async deleteGroup(name: string): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const group = await groups.findByName(trx, name);
      if (!group) throw groupNotFound();
      if (group.builtin) throw builtinGroup();
      await groups.delete(trx, group.id);
      await this.hooks.groupDeleted(trx, { id: group.id, name: group.name });
    });
    await this.announce(...this.hooks.announcedTopics);
  }

  async addMember(groupName: string, userName: string): Promise<GroupRow> {
    const group = await this.knex.transaction(async (trx) => {
      const group = await groups.findByName(trx, groupName);
      if (!group) throw groupNotFound();
      const user = await users.findByName(trx, userName);
      if (!user) throw userNotFound();
      await groups.addMember(trx, group.id, user.id);
      return group;
    });
    await this.announce();
    return group;
  }

  async removeMember(groupName: string, userName: string): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const group = await groups.findByName(trx, groupName);
      if (!group) throw groupNotFound();
      const user = await users.findByName(trx, userName);
      if (!user) throw userNotFound();
      if (group.name === BUILTIN_GROUPS.systemAdministrators) await this.assertNotLastSystemAdmin(trx, user.id);
      if (!(await groups.removeMember(trx, group.id, user.id))) {
        throw notAMember();
      }
    });
    await this.announce();
  }

  groupPicker(query: string, maxResults: number) {
    return groups.picker(this.knex, query, maxResults);
  }

  /** Nobody could administer the server again if its last system administrator went away. */
  private async assertNotLastSystemAdmin(trx: Knex, userId: number): Promise<void> {
    const sysadmins = await groups.findByName(trx, BUILTIN_GROUPS.systemAdministrators);
    if (!sysadmins) return;
    // Lock the membership rows so two concurrent removals cannot both pass the check.
    const members = await groups.lockMemberIds(trx, sysadmins.id);
    if (members.length === 1 && members[0] === userId) {
      throw lastSystemAdministrator();
    }
  }
}
