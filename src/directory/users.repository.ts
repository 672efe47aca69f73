import type { Knex } from 'knex';

export interface UserRow {
  id: number;
  name: string;
  display_name: string;
  email: string;
  active: boolean;
  password_hash: string;
}

/** A user with its failed-login state, for the administrators' list. */
export interface UserWithLogin extends Omit<UserRow, 'password_hash'> {
  failures: number;
  locked_at: Date | null;
}

const COLUMNS = ['id', 'name', 'display_name', 'email', 'active', 'password_hash'];

/** Table access for users. `q` is the root knex or a transaction. */
export const usersRepository = {
  async findByName(q: Knex, name: string): Promise<UserRow | undefined> {
    return (await q('users').select(COLUMNS).where({ name_key: name.toLowerCase() }).first()) as UserRow | undefined;
  },

  async findById(q: Knex, id: number): Promise<UserRow | undefined> {
    return (await q('users').select(COLUMNS).where({ id }).first()) as UserRow | undefined;
  },

  /** Users by login names (without regard to case); unknown names are simply absent. */
  findByNames(q: Knex, names: readonly string[]): Promise<UserRow[]> {
    if (names.length === 0) return Promise.resolve([]);
    return q('users').select(COLUMNS).whereIn('name_key', names.map((n) => n.toLowerCase()));
  },

  async insert(q: Knex, u: { name: string; displayName: string; email: string; passwordHash: string }): Promise<UserRow> {
    const [row] = await q('users')
      .insert({ name: u.name, name_key: u.name.toLowerCase(), display_name: u.displayName, email: u.email, password_hash: u.passwordHash })
      .returning(COLUMNS);
    return row as UserRow;
  },

  async deactivate(q: Knex, id: number): Promise<void> {
    await q('users').where({ id }).update({ active: false });
  },

  /** Of these users, the ids of the active ones. */
  async activeIds(q: Knex, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await q('users').whereIn('id', ids).andWhere('active', true).select<{ id: number }[]>('id');
    return rows.map((r) => r.id);
  },

  /** Of these users, the names of the ones whose password hash is this one, by name (imported people without a password). */
  async namesWithPasswordHash(q: Knex, ids: readonly number[], hash: string): Promise<string[]> {
    if (ids.length === 0) return [];
    return (await q('users').whereIn('id', ids).where({ password_hash: hash }).orderBy('name').pluck('name')) as string[];
  },

  /** The user's row, locked until the transaction ends (an update reads what it changes). */
  async lockByName(q: Knex, name: string): Promise<UserRow | undefined> {
    return (await q('users').select(COLUMNS).where({ name_key: name.toLowerCase() }).forUpdate().first()) as UserRow | undefined;
  },

  async update(q: Knex, id: number, patch: { displayName?: string; email?: string; active?: boolean }): Promise<UserRow> {
    const [row] = await q('users')
      .where({ id })
      .update({
        ...(patch.displayName === undefined ? {} : { display_name: patch.displayName }),
        ...(patch.email === undefined ? {} : { email: patch.email }),
        ...(patch.active === undefined ? {} : { active: patch.active }),
        updated_at: q.fn.now(),
      })
      .returning(COLUMNS);
    return row as UserRow;
  },

  /**
   * One page of users whose name, display name or e-mail contains `text` (case-insensitive), ordered by name,
   * with their failed-login state (`auth_failures`, keyed by the same lower-case name) and the total.
   */
  async page(q: Knex, text: string, startAt: number, maxResults: number): Promise<{ total: number; rows: UserWithLogin[] }> {
    const pattern = `%${escapeLike(text.toLowerCase())}%`;
    const base = q('users as u').where((w) =>
      w
        .whereRaw("u.name_key like ? escape '\\'", [pattern])
        .orWhereRaw("lower(u.display_name) like ? escape '\\'", [pattern])
        .orWhereRaw("lower(u.email) like ? escape '\\'", [pattern]),
    );
    const [countRow, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
      base
        .clone()
        .leftJoin('auth_failures as f', 'f.name_key', 'u.name_key')
        .select('u.id', 'u.name', 'u.display_name', 'u.email', 'u.active', q.raw('coalesce(f.failures, 0)::int as failures'), 'f.locked_at')
        .orderBy('u.name_key')
        .offset(startAt)
        .limit(maxResults),
    ]);
    return { total: Number(countRow?.n ?? 0), rows: rows as UserWithLogin[] };
  },

  async setPassword(q: Knex, id: number, passwordHash: string): Promise<void> {
    await q('users').where({ id }).update({ password_hash: passwordHash, updated_at: q.fn.now() });
  },

  /** Deletes the user; memberships and tokens go with it (foreign keys cascade). */
  async delete(q: Knex, id: number): Promise<boolean> {
    const rows = await q('users').where({ id }).del().returning('id');
    return rows.length > 0;
  },

  async count(q: Knex): Promise<number> {
    const row = (await q('users').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  },

  /** Name or display name contains `text` (case-insensitive), ordered by name; one page. */
  search(q: Knex, text: string, startAt: number, maxResults: number): Promise<UserRow[]> {
    const pattern = `%${escapeLike(text.toLowerCase())}%`;
    return q('users')
      .select(COLUMNS)
      .where((w) => w.whereRaw("name_key like ? escape '\\'", [pattern]).orWhereRaw("lower(display_name) like ? escape '\\'", [pattern]))
      .orderBy('name_key')
      .offset(startAt)
      .limit(maxResults);
  },
};

/** Makes `%`, `_` and `\` in user text match themselves in a LIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
