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
  operation: 'read' | 'create';
  target: 'space' | 'page' | 'blogpost' | 'comment';
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
  async findByKey(q: Knex, key: string): Promise<SpaceRow | undefined> {
    return (await q('spaces').select('id', 'key', 'name', 'description').where({ key }).first()) as SpaceRow | undefined;
  },

  /** Space keys are unique without regard to case, so `demo` cannot sit next to `DEMO`. */
  async keyTaken(q: Knex, key: string): Promise<boolean> {
    return (await q('spaces').whereRaw('lower(key) = lower(?)', [key]).first('id')) !== undefined;
  },

  async insert(q: Knex, s: { key: string; name: string; description: string }): Promise<SpaceRow> {
    const [row] = await q('spaces').insert(s).returning(['id', 'key', 'name', 'description']);
    return row as SpaceRow;
  },

  async canRead(q: Knex, userId: number, spaceId: number): Promise<boolean> {
    return (await holds(q, userId, spaceId, 'read', ['space'])) !== undefined;
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
