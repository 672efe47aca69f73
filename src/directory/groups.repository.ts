import type { Knex } from 'knex';
import { escapeLike } from './users.repository.ts';

/** A member as the members' page lists it. */
export interface UserRowLite {
  name: string;
  display_name: string;
  email: string;
  active: boolean;
}

export interface GroupRow {
  id: number;
  name: string;
  builtin: boolean;
}

export const BUILTIN_GROUPS = {
  users: 'users',
  administrators: 'administrators',
  systemAdministrators: 'system-administrators',
};

/** Table access for groups and memberships. */
export const groupsRepository = {
  async findByName(q: Knex, name: string): Promise<GroupRow | undefined> {
    return (await q('groups').select('id', 'name', 'builtin').where({ name_key: name.toLowerCase() }).first()) as GroupRow | undefined;
  },

  findByNames(q: Knex, names: readonly string[]): Promise<GroupRow[]> {
    if (names.length === 0) return Promise.resolve([]);
    return q('groups').select('id', 'name', 'builtin').whereIn('name_key', names.map((n) => n.toLowerCase()));
  },

  async insert(q: Knex, name: string): Promise<GroupRow> {
    const [row] = await q('groups').insert({ name, name_key: name.toLowerCase() }).returning(['id', 'name', 'builtin']);
    return row as GroupRow;
  },

  async delete(q: Knex, id: number): Promise<void> {
    await q('groups').where({ id }).del().returning('id');
  },

  /** The members' ids of a group, their membership rows locked until the transaction ends. */
  async lockMemberIds(q: Knex, groupId: number): Promise<number[]> {
    const rows = await q('group_members').where({ group_id: groupId }).forUpdate().select<{ user_id: number }[]>('user_id');
    return rows.map((r) => r.user_id);
  },

  /**
   * Locks the `system-administrators` row (system-admin-guard.ts): `update` as NO KEY UPDATE, which the foreign-key
   * checks of new membership rows do not wait for; `share` for a change that only depends on the membership.
   */
  async lockSystemAdministrators(q: Knex, mode: 'share' | 'update'): Promise<number | undefined> {
    const base = q('groups').select<{ id: number }[]>('id').where({ name_key: BUILTIN_GROUPS.systemAdministrators });
    const rows = await (mode === 'update' ? base.forNoKeyUpdate() : base.forShare());
    return rows[0]?.id;
  },

  /** Which of these users are members of the group. */
  async membersAmong(q: Knex, groupId: number, userIds: readonly number[]): Promise<Set<number>> {
    const rows = await q('group_members').where({ group_id: groupId }).whereIn('user_id', userIds).select<{ user_id: number }[]>('user_id');
    return new Set(rows.map((r) => Number(r.user_id)));
  },

  /** Adds a membership; adding an existing one changes nothing (and answers false). */
  async addMember(q: Knex, groupId: number, userId: number): Promise<boolean> {
    const rows = await q('group_members').insert({ group_id: groupId, user_id: userId }).onConflict(['group_id', 'user_id']).ignore().returning('user_id');
    return rows.length > 0;
  },

  async removeMember(q: Knex, groupId: number, userId: number): Promise<boolean> {
    const rows = await q('group_members').where({ group_id: groupId, user_id: userId }).del().returning('user_id');
    return rows.length > 0;
  },

  async countMembers(q: Knex, groupId: number): Promise<number> {
    const row = (await q('group_members').where({ group_id: groupId }).count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  },

  /** Group names of one user, sorted. */
  async namesOfUser(q: Knex, userId: number): Promise<string[]> {
    const rows = await q('groups as g')
      .join('group_members as m', 'm.group_id', 'g.id')
      .where('m.user_id', userId)
      .orderBy('g.name_key')
      .select<{ name: string }[]>('g.name');
    return rows.map((r) => r.name);
  },

  /** One page of groups whose name contains `query`, by name, with their member counts, and the total. */
  async page(q: Knex, query: string, startAt: number, maxResults: number): Promise<{ total: number; rows: (GroupRow & { members: number })[] }> {
    const pattern = `%${escapeLike(query.toLowerCase())}%`;
    const base = q('groups as g').whereRaw("g.name_key like ? escape '\\'", [pattern]);
    const members = q('group_members as m').whereRaw('m.group_id = g.id').count('*');
    const [countRow, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
      base.clone().select('g.id', 'g.name', 'g.builtin', q.raw('(?)::int as members', [members])).orderBy('g.name_key').offset(startAt).limit(maxResults),
    ]);
    return { total: Number(countRow?.n ?? 0), rows: rows as (GroupRow & { members: number })[] };
  },

  /** One page of a group's members, by name, and their total. */
  async membersPage(q: Knex, groupId: number, startAt: number, maxResults: number): Promise<{ total: number; rows: UserRowLite[] }> {
    const base = q('group_members as m').join('users as u', 'u.id', 'm.user_id').where('m.group_id', groupId);
    const [countRow, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
      base.clone().select('u.name', 'u.display_name', 'u.email', 'u.active').orderBy('u.name_key').offset(startAt).limit(maxResults),
    ]);
    return { total: Number(countRow?.n ?? 0), rows: rows as UserRowLite[] };
  },

  async picker(q: Knex, query: string, limit: number): Promise<{ total: number; names: string[] }> {
    const pattern = `%${escapeLike(query.toLowerCase())}%`;
    const base = q('groups').whereRaw("name_key like ? escape '\\'", [pattern]);
    const [countRow, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
      base.clone().select<{ name: string }[]>('name').orderBy('name_key').limit(limit),
    ]);
    return { total: Number(countRow?.n ?? 0), names: rows.map((r) => r.name) };
  },
};
