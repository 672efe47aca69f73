import type { Knex } from 'knex';
import type { PasswordHasher } from '../platform/auth/password-hasher.ts';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { DIRECTORY_TOPIC } from '../platform/auth/auth-cache.ts';
import { usersRepository as users, type UserRow } from './users.repository.ts';
import { groupsRepository as groups, BUILTIN_GROUPS, type GroupRow } from './groups.repository.ts';
import { DirectoryHooks } from './directory-hooks.ts';
import { PasswordPolicy } from './password-policy.ts';
import { clearFailures } from './auth-failures.repository.ts';
import { SYSTEM_ACTOR, userRecord } from './directory-audit.ts';
import { actorName, assertMayChangeMembership, assertMayManageUser, type Actor } from './system-admin-guard.ts';
import {
  builtinGroup,
  groupExists,
  groupNotFound,
  lastActiveSystemAdministrator,
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
    /** Checked by the callers that take a password a person chose (REST, the command line), not by this service. */
    readonly passwordPolicy = new PasswordPolicy(),
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
  async createUser(
    input: { name: string; password: string; displayName?: string; emailAddress?: string; groups?: string[] },
    actor: Actor = SYSTEM_ACTOR,
  ): Promise<UserWithGroups> {
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
      for (const g of found) await assertMayChangeMembership(trx, actor, g.name);
      for (const g of found) await groups.addMember(trx, g.id, row.id);
      const created = { ...row, groups: found.map((g) => g.name).sort() };
      await this.hooks.changed(trx, { actor: actorName(actor), kind: 'user.created', target: { type: 'user', name: row.name }, before: null, after: { ...userRecord(row), groups: created.groups } });
      return created;
    });
  }

  /**
   * Sets a password (an administrator's reset, or `self`: the user's own change after its current password was
   * checked). Every session and cached login with the old one ends; the audit entry names no password.
   */
  async setPassword(name: string, password: string, actor: Actor = SYSTEM_ACTOR, self = false): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    await this.knex.transaction(async (trx) => {
      const user = await users.lockByName(trx, name);
      if (!user) throw userNotFound();
      await assertMayManageUser(trx, actor, user.id);
      await users.setPassword(trx, user.id, passwordHash);
      await this.hooks.changed(trx, { actor: actorName(actor), kind: self ? 'user.password_changed' : 'user.password_set', target: { type: 'user', name: user.name } });
    });
    await this.announce();
  }

  /**
   * Changes display name, e-mail address and active flag. A deactivated user cannot log in by any credential
   * and its sessions end (the hook, in this transaction); the last active system administrator stays active.
   */
  async updateUser(name: string, patch: { displayName?: string; emailAddress?: string; active?: boolean }, actor: Actor = SYSTEM_ACTOR): Promise<UserWithGroups> {
    const updated = await this.knex.transaction(async (trx) => {
      const user = await users.lockByName(trx, name);
      if (!user) throw userNotFound();
      await assertMayManageUser(trx, actor, user.id);
      const deactivating = patch.active === false && user.active;
      if (deactivating) await this.assertNotLastSystemAdmin(trx, user.id, true);
      const row = await users.update(trx, user.id, { displayName: patch.displayName, email: patch.emailAddress, active: patch.active });
      const before = userRecord(user);
      const after = userRecord(row);
      const changed = (Object.keys(after) as (keyof typeof after)[]).filter((k) => before[k] !== after[k]);
      if (changed.length > 0) {
        const pick = (r: typeof before) => Object.fromEntries(changed.map((k) => [k, r[k]]));
        await this.hooks.changed(trx, { actor: actorName(actor), kind: 'user.updated', target: { type: 'user', name: user.name }, before: pick(before), after: pick(after) });
      }
      if (deactivating) await this.hooks.userDeactivated(trx, { id: user.id, name: user.name, actor: actorName(actor) });
      return row;
    });
    await this.announce();
    return this.withGroups(updated);
  }

  /** Deletes a user with its memberships and tokens; the deletion hooks run in its transaction (the field editor drops grants). */
  async deleteUser(name: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const user = await users.findByName(trx, name);
      if (!user) throw userNotFound();
      await assertMayManageUser(trx, actor, user.id);
      await this.assertNotLastSystemAdmin(trx, user.id);
      await users.delete(trx, user.id);
      await this.hooks.userDeleted(trx, { id: user.id, name: user.name, actor: actorName(actor) });
    });
    await this.announce(...this.hooks.announcedTopics);
  }

  /** Forgets the name's failed logins and lock (audited when there was something to forget). */
  async resetLockout(name: string, actor = SYSTEM_ACTOR): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const cleared = await clearFailures(trx, name);
      if (cleared) {
        await this.hooks.changed(trx, {
          actor,
          kind: 'user.unlocked',
          target: { type: 'user', name },
          before: { failedLogins: cleared.failures, locked: cleared.locked },
          after: null,
        });
      }
    });
    await this.announce();
  }

  searchUsers(text: string, startAt: number, maxResults: number): Promise<UserRow[]> {
    return maxResults === 0 ? Promise.resolve([]) : users.search(this.knex, text, startAt, maxResults);
  }

  async createGroup(name: string, actor = SYSTEM_ACTOR): Promise<GroupRow> {
    return this.knex.transaction(async (trx) => {
      if (await groups.findByName(trx, name)) {
        throw groupExists();
      }
      const row = await groups.insert(trx, name);
      await this.hooks.changed(trx, { actor, kind: 'group.created', target: { type: 'group', name: row.name } });
      return row;
    });
  }

  async deleteGroup(name: string, actor = SYSTEM_ACTOR): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const group = await groups.findByName(trx, name);
      if (!group) throw groupNotFound();
      if (group.builtin) throw builtinGroup();
      await groups.delete(trx, group.id);
      await this.hooks.groupDeleted(trx, { id: group.id, name: group.name, actor });
    });
    await this.announce(...this.hooks.announcedTopics);
  }

  async addMember(groupName: string, userName: string, actor: Actor = SYSTEM_ACTOR): Promise<GroupRow> {
    const group = await this.knex.transaction(async (trx) => {
      const group = await groups.findByName(trx, groupName);
      if (!group) throw groupNotFound();
      const user = await users.findByName(trx, userName);
      if (!user) throw userNotFound();
      await assertMayChangeMembership(trx, actor, group.name);
      if (await groups.addMember(trx, group.id, user.id)) {
        await this.hooks.changed(trx, { actor: actorName(actor), kind: 'group.member_added', target: { type: 'group', name: group.name }, after: { user: user.name } });
      }
      return group;
    });
    await this.announce();
    return group;
  }

  async removeMember(groupName: string, userName: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const group = await groups.findByName(trx, groupName);
      if (!group) throw groupNotFound();
      const user = await users.findByName(trx, userName);
      if (!user) throw userNotFound();
      await assertMayChangeMembership(trx, actor, group.name);
      if (group.name === BUILTIN_GROUPS.systemAdministrators) await this.assertNotLastSystemAdmin(trx, user.id);
      if (!(await groups.removeMember(trx, group.id, user.id))) {
        throw notAMember();
      }
      await this.hooks.changed(trx, { actor: actorName(actor), kind: 'group.member_removed', target: { type: 'group', name: group.name }, before: { user: user.name } });
    });
    await this.announce();
  }

  groupPicker(query: string, maxResults: number) {
    return groups.picker(this.knex, query, maxResults);
  }

  /**
   * Nobody could administer the server again if the last system administrator who can log in went away
   * (deleted, removed from the group, or, `deactivating`, made inactive).
   */
  private async assertNotLastSystemAdmin(trx: Knex, userId: number, deactivating = false): Promise<void> {
    const sysadmins = await groups.findByName(trx, BUILTIN_GROUPS.systemAdministrators);
    if (!sysadmins) return;
    // Lock the membership rows so two concurrent removals or deactivations cannot both pass the check. Who is
    // active is read by a statement of its own AFTER the lock was granted: under READ COMMITTED it then sees a
    // deactivation that committed while this one waited (a join in the locking statement would not).
    const members = await groups.lockMemberIds(trx, sysadmins.id);
    const active = await users.activeIds(trx, members);
    if (active.length === 1 && active[0] === userId) {
      throw deactivating ? lastActiveSystemAdministrator() : lastSystemAdministrator();
    }
  }
}
