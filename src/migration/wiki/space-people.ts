import type { Knex } from 'knex';
import { directoryImportPort as directory } from '../../directory/directory-import-port.ts';
import type { SourceSpaceBundle } from './space-model.ts';
import type { UnitCounter } from './unit-counter.ts';
import { BUILTIN_MEMBERSHIPS_SKIPPED, NO_USABLE_PASSWORD } from '../imported-people.ts';


/** Our users and groups by lower-cased name, for the content and restrictions of one space. */
export interface People {
  userId(name: string): number | undefined;
  groupId(name: string): number | undefined;
  /** Of the users the space names, those that still have no usable password (created now or by an earlier run). */
  withoutPassword: string[];
}

/** A user or group name this host can keep as it is: trimmed, 1 to 255 characters, no control characters. */
const keepable = (name: string) =>
  name.length >= 1 && name.length <= 255 && name.trim() === name && [...name].every((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f);
const UNKEEPABLE = 'users and groups whose name this host cannot keep (empty, padded, over 255 characters or with control characters)';

/** Every user name the bundle mentions: its users, creators, restricted-to users, group members. */
function namedUsers(bundle: SourceSpaceBundle): Map<string, { name: string; displayName?: string; email?: string; active?: boolean }> {
  const out = new Map<string, { name: string; displayName?: string; email?: string; active?: boolean }>();
  const add = (name: string | undefined) => {
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), { name });
  };
  for (const u of bundle.users) out.set(u.name.toLowerCase(), u);
  for (const c of bundle.content) {
    add(c.creator);
    for (const r of [c.viewRestrictions, ...(c.inheritedRestrictions ?? [])]) for (const u of r?.users ?? []) add(u);
  }
  for (const g of bundle.groups) for (const m of g.members) add(m);
  return out;
}

function namedGroups(bundle: SourceSpaceBundle): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of bundle.groups) out.set(g.name.toLowerCase(), g.name);
  for (const c of bundle.content) {
    for (const r of [c.viewRestrictions, ...(c.inheritedRestrictions ?? [])]) {
      for (const g of r?.groups ?? []) if (!out.has(g.toLowerCase())) out.set(g.toLowerCase(), g);
    }
  }
  return out;
}

/**
 * Users and groups of one space, inside its transaction: existing ones (by name, without regard to case) are
 * used as they are; missing ones are created (users without a usable password, in the `users` group); the
 * bundle's group memberships are added. Nothing is removed or renamed.
 */
export async function ensurePeople(trx: Knex, bundle: SourceSpaceBundle, count: UnitCounter): Promise<People> {
  const userIds = new Map<string, number>();
  const groupIds = new Map<string, number>();
  const wantedUsers = namedUsers(bundle);
  for (const [key, u] of wantedUsers) {
    if (!keepable(u.name)) {
      count.skip(UNKEEPABLE);
      continue;
    }
    const existing = await directory.findUserId(trx, u.name);
    if (existing !== undefined) {
      userIds.set(key, existing);
      count.add('users', 'unchanged');
      continue;
    }
    const id = await directory.createUser(trx, {
      name: u.name,
      displayName: u.displayName || u.name,
      email: u.email ?? '',
      active: u.active !== false,
      passwordHash: NO_USABLE_PASSWORD,
    });
    userIds.set(key, id);
    count.add('users', 'created');
  }
  const builtin = new Set<string>();
  for (const [key, name] of namedGroups(bundle)) {
    if (!keepable(name)) {
      count.skip(UNKEEPABLE);
      continue;
    }
    const existing = await directory.findGroup(trx, name);
    if (existing) count.add('groups', 'unchanged');
    else count.add('groups', 'created');
    if (existing?.builtin) builtin.add(key);
    groupIds.set(key, (existing ?? (await directory.createGroup(trx, name))).id);
  }
  for (const g of bundle.groups) {
    const groupId = groupIds.get(g.name.toLowerCase());
    if (groupId === undefined) continue;
    // The built-in groups carry this host's roles (users, administrators, system administrators): an export's
    // group of the same name gives nobody a role here. Restrictions may still name them.
    if (builtin.has(g.name.toLowerCase())) {
      count.skip(BUILTIN_MEMBERSHIPS_SKIPPED, g.members.length);
      continue;
    }
    for (const member of g.members) {
      const userId = userIds.get(member.toLowerCase());
      if (userId === undefined) continue;
      const added = await directory.addMember(trx, groupId, userId);
      count.add('group memberships', added ? 'created' : 'unchanged');
    }
  }
  const withoutPassword = await directory.namesWithPasswordHash(trx, [...userIds.values()], NO_USABLE_PASSWORD);
  return {
    userId: (name) => userIds.get(name.toLowerCase()),
    groupId: (name) => groupIds.get(name.toLowerCase()),
    withoutPassword,
  };
}
