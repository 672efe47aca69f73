import type { Knex } from 'knex';

export interface SpaceRow {
  id: number;
  key: string;
  name: string;
  description: string;
}

export interface PermissionRow {
  id: number;
  user_id: number | null;
  group_id: number | null;
  operation: 'read' | 'create' | 'administer';
  target: 'space' | 'page' | 'blogpost' | 'comment';
}

/** A permission with the name of its user or group, as the permission list shows it. */
export interface NamedPermissionRow extends PermissionRow {
  user_name: string | null;
  group_name: string | null;
}

/** Spaces of the caller's `read` permission (directly or through a group), current ones only. */
function readableSpaces(q: Knex, userId: number) {
  return q('space_permissions')
    .select('space_id')
    .where({ operation: 'read', target: 'space' })
    .where((w) =>
      w.where('user_id', userId).orWhereIn('group_id', q('group_members').select('group_id').where('user_id', userId)),
    );
}

/** Whether the user (directly or through one of its groups) holds a permission row matching `filter`. */
function holds(q: Knex, userId: number, spaceId: number, operation: string, targets: string[]) {
  return q('space_permissions')
    .where({ space_id: spaceId, operation })
    .whereIn('target', targets)
    .where((w) =>
      w.where('user_id', userId).orWhereIn('group_id', q('group_members').select('group_id').where('user_id', userId)),
    )
    .first(q.raw('1 as ok'));
}

/** Table access for spaces and space permissions. */
export const spacesRepository = {
  /** A current space by its exact key (deleted spaces are in the trash and found by nobody). */
  async findByKey(q: Knex, key: string): Promise<SpaceRow | undefined> {
    return (await q('spaces').select('id', 'key', 'name', 'description').where({ key, status: 'current' }).first()) as SpaceRow | undefined;
  },

  /** As findByKey, locking the row until the transaction ends (deleting a space, granting in it). */
  async findByKeyForUpdate(q: Knex, key: string): Promise<SpaceRow | undefined> {
    return (await q('spaces').select('id', 'key', 'name', 'description').where({ key, status: 'current' }).forUpdate().first()) as
      | SpaceRow
      | undefined;
  },

  /** Space keys are unique among current spaces without regard to case, so `demo` cannot sit next to `DEMO`. */
  async keyTaken(q: Knex, key: string): Promise<boolean> {
    return (await q('spaces').whereRaw('lower(key) = lower(?)', [key]).where({ status: 'current' }).first('id')) !== undefined;
  },

  /** One page of the current spaces the user may read, by key; one row more than `limit` tells of a next page. */
  async listReadable(q: Knex, userId: number, start: number, limit: number): Promise<SpaceRow[]> {
    return (await q('spaces')
      .select('id', 'key', 'name', 'description')
      .where({ status: 'current' })
      .whereIn('id', readableSpaces(q, userId))
      .orderBy('key')
      .offset(start)
      .limit(limit + 1)) as SpaceRow[];
  },

  /**
   * One page of every current space, by key, for administrators (who manage spaces they may not read): each
   * with whether anybody at all holds read on it (an imported space starts with no grant).
   */
  async listAll(q: Knex, start: number, limit: number): Promise<(SpaceRow & { nobody_reads: boolean })[]> {
    const anyReader = q('space_permissions as p').select(q.raw('1')).whereRaw('p.space_id = spaces.id').where({ 'p.operation': 'read', 'p.target': 'space' });
    const rows = (await q('spaces')
      .select('id', 'key', 'name', 'description', q.raw('not exists (?) as nobody_reads', [anyReader]))
      .where({ status: 'current' })
      .orderBy('key')
      .offset(start)
      .limit(limit + 1)) as (SpaceRow & { nobody_reads: boolean })[];
    return rows;
  },

  /** Moves the space to the trash with all its content (comments included), in the caller's transaction. */
  async trash(q: Knex, spaceId: number): Promise<void> {
    await q('contents').where({ space_id: spaceId, status: 'current' }).update({ status: 'trashed', updated_at: q.fn.now() }).returning('id');
    await q('spaces').where({ id: spaceId }).update({ status: 'trashed', trashed_at: q.fn.now() }).returning('id');
  },

  /** The space's home page id, or null when it has none. */
  async homePageOf(q: Knex, spaceId: number): Promise<number | null> {
    const row = (await q('spaces').select('home_page_id').where({ id: spaceId }).first()) as { home_page_id: number | null } | undefined;
    return row?.home_page_id ?? null;
  },

  async setHomePage(q: Knex, spaceId: number, contentId: number | null): Promise<void> {
    await q('spaces').where({ id: spaceId }).update({ home_page_id: contentId });
  },

  async insert(q: Knex, s: { key: string; name: string; description: string }): Promise<SpaceRow> {
    const [row] = await q('spaces').insert(s).returning(['id', 'key', 'name', 'description']);
    return row as SpaceRow;
  },

  /** Changes a space's name and description. */
  async update(q: Knex, id: number, s: { name: string; description: string }): Promise<void> {
    await q('spaces').where({ id }).update(s);
  },

  /** Whether any user or group holds read on the space (an imported space starts with no grant at all). */
  async anyoneReads(q: Knex, spaceId: number): Promise<boolean> {
    return (await q('space_permissions').where({ space_id: spaceId, operation: 'read', target: 'space' }).first('id')) !== undefined;
  },

  async canRead(q: Knex, userId: number, spaceId: number): Promise<boolean> {
    return (await holds(q, userId, spaceId, 'read', ['space'])) !== undefined;
  },

  /** `administer` on the space: manage its permissions, delete it. */
  async canAdminister(q: Knex, userId: number, spaceId: number): Promise<boolean> {
    return (await holds(q, userId, spaceId, 'administer', ['space'])) !== undefined;
  },

  /** Every permission of the space with its user's or group's name, by id. */
  async listPermissions(q: Knex, spaceId: number): Promise<NamedPermissionRow[]> {
    return (await q('space_permissions as p')
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .leftJoin('groups as g', 'g.id', 'p.group_id')
      .select('p.id', 'p.user_id', 'p.group_id', 'p.operation', 'p.target', 'u.name as user_name', 'g.name as group_name')
      .where('p.space_id', spaceId)
      .orderBy('p.id')) as NamedPermissionRow[];
  },

  /** `create` with target `space` covers every content type; a narrower target covers that type only. */
  async canCreate(q: Knex, userId: number, spaceId: number, type: string): Promise<boolean> {
    return (await holds(q, userId, spaceId, 'create', ['space', type])) !== undefined;
  },

  async findPermission(
    q: Knex,
    p: { spaceId: number; userId: number | null; groupId: number | null; operation: string; target: string },
  ): Promise<PermissionRow | undefined> {
    return (await q('space_permissions')
      .select('id', 'user_id', 'group_id', 'operation', 'target')
      .where({ space_id: p.spaceId, operation: p.operation, target: p.target, user_id: p.userId, group_id: p.groupId })
      .first()) as PermissionRow | undefined;
  },

  async insertPermission(
    q: Knex,
    p: { spaceId: number; userId: number | null; groupId: number | null; operation: string; target: string },
  ): Promise<PermissionRow> {
    const [row] = await q('space_permissions')
      .insert({ space_id: p.spaceId, user_id: p.userId, group_id: p.groupId, operation: p.operation, target: p.target })
      .returning(['id', 'user_id', 'group_id', 'operation', 'target']);
    return row as PermissionRow;
  },

  async deletePermission(q: Knex, spaceId: number, id: number): Promise<boolean> {
    const rows = await q('space_permissions').where({ space_id: spaceId, id }).del().returning('id');
    return rows.length > 0;
  },
};
