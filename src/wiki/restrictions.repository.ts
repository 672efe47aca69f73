import type { Knex } from 'knex';

export interface ReadRestriction {
  users: { name: string; display_name: string }[];
  groups: { name: string }[];
}

/** Table access for content read restrictions (rows exist only while a restriction is set). */
export const restrictionsRepository = {
  async read(q: Knex, contentId: number): Promise<ReadRestriction> {
    const [users, groups] = await Promise.all([
      q('content_read_restrictions as r')
        .join('users as u', 'u.id', 'r.user_id')
        .where('r.content_id', contentId)
        .orderBy('u.name_key')
        .select<{ name: string; display_name: string }[]>('u.name', 'u.display_name'),
      q('content_read_restrictions as r')
        .join('groups as g', 'g.id', 'r.group_id')
        .where('r.content_id', contentId)
        .orderBy('g.name_key')
        .select<{ name: string }[]>('g.name'),
    ]);
    return { users, groups };
  },

  /** Sets the restriction to exactly these users and groups; none at all lifts it. */
  async replace(q: Knex, contentId: number, userIds: number[], groupIds: number[]): Promise<void> {
    await q('content_read_restrictions').where({ content_id: contentId }).del().returning('id');
    const restricted = userIds.length + groupIds.length > 0;
    await q('contents').where({ id: contentId }).update({ read_restricted: restricted });
    const rows = [
      ...[...new Set(userIds)].map((user_id) => ({ content_id: contentId, user_id })),
      ...[...new Set(groupIds)].map((group_id) => ({ content_id: contentId, group_id })),
    ];
    if (rows.length > 0) await q('content_read_restrictions').insert(rows);
  },

  /**
   * Restricts the content to nobody: the flag without rows (content-access.repository.ts), so no reader passes
   * until an administrator sets the restriction (PUT …/restriction). Imports use it for content whose source
   * restriction names only people this host does not have.
   */
  async hide(q: Knex, contentId: number): Promise<void> {
    await q('content_read_restrictions').where({ content_id: contentId }).del().returning('id');
    await q('contents').where({ id: contentId }).update({ read_restricted: true });
  },
};
