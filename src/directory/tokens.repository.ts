import type { Knex } from 'knex';

export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  scope: TokenScope;
}

/** `write`: the token authenticates any method; `read`: GET and HEAD only. */
export type TokenScope = 'read' | 'write';

const COLUMNS = ['id', 'user_id', 'name', 'created_at', 'expires_at', 'last_used_at', 'scope'];

/** Table access for personal access tokens (only hashes are stored). */
export const tokensRepository = {
  async insert(q: Knex, t: { userId: number; name: string; tokenHash: string; expiresAt: Date | null; scope: TokenScope }): Promise<TokenRow> {
    const [row] = await q('access_tokens')
      .insert({ user_id: t.userId, name: t.name, token_hash: t.tokenHash, expires_at: t.expiresAt, scope: t.scope })
      .returning(COLUMNS);
    return row as TokenRow;
  },

  async listForUser(q: Knex, userId: number): Promise<TokenRow[]> {
    return (await q('access_tokens').select(COLUMNS).where({ user_id: userId }).orderBy('id')) as TokenRow[];
  },

  async findById(q: Knex, id: number): Promise<TokenRow | undefined> {
    return (await q('access_tokens').select(COLUMNS).where({ id }).first()) as TokenRow | undefined;
  },

  async delete(q: Knex, id: number): Promise<boolean> {
    const rows = await q('access_tokens').where({ id }).del().returning('id');
    return rows.length > 0;
  },
};
