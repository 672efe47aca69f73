import type { Knex } from 'knex';
import type { AuthStore, DirectoryUser, LoginRecord, TokenRecord } from '../platform/auth/auth-user.ts';
import { BUILTIN_GROUPS } from './groups.repository.ts';

/** The user's group names, sorted, computed in the same query as the login lookup. */
export const GROUPS_OF_U = `coalesce((select array_agg(g.name order by g.name_key) from group_members gm
  join groups g on g.id = gm.group_id where gm.user_id = u.id), '{}') as group_names`;

export interface UserColumns {
  id: number;
  name: string;
  display_name: string;
  email: string;
  active: boolean;
  group_names: string[];
}

export function toDirectoryUser(row: UserColumns): DirectoryUser {
  const groups = row.group_names;
  const isSystemAdmin = groups.includes(BUILTIN_GROUPS.systemAdministrators);
  return {
    id: row.id,
    name: row.name,
    displayName: row.display_name,
    email: row.email,
    active: row.active,
    groups,
    isAdmin: isSystemAdmin || groups.includes(BUILTIN_GROUPS.administrators),
    isSystemAdmin,
  };
}

/**
 * The directory's side of authentication: one query per cache miss, for Basic (user, groups and the
 * failed-login state of the name together) and for Bearer.
 */
export function createAuthStore(knex: Knex): AuthStore {
  return {
    async findLogin(username): Promise<LoginRecord> {
      const key = username.toLowerCase();
      const row = await knex
        .select('u.id', 'u.name', 'u.display_name', 'u.email', 'u.active', 'u.password_hash', 'f.failures', 'f.locked_at', knex.raw(GROUPS_OF_U))
        .from(knex.raw('(select ?::text as k) as q', [key]))
        .leftJoin('users as u', 'u.name_key', 'q.k')
        .leftJoin('auth_failures as f', 'f.name_key', 'q.k')
        .first();
      const exists = row && row.id !== null && row.id !== undefined;
      return {
        user: exists ? { ...toDirectoryUser(row), passwordHash: row.password_hash } : undefined,
        failures: row?.failures ?? 0,
        lockedAt: row?.locked_at ?? null,
      };
    },

    async recordFailure(username, max, lockoutMinutes) {
      // One statement, so concurrent attempts on several nodes all count, in one order, and the lock is set
      // by the attempt that reaches `max`. A name locked now is left alone (no row comes back); a lock that
      // ran out is renewed by the next attempt, which is evaluated (one more wrong password locks again).
      // "Ran out" by this process's clock, as the authenticator decided it when it read the lock.
      const ranOutBefore = lockoutMinutes > 0 ? new Date(Date.now() - lockoutMinutes * 60_000) : null;
      const result = await knex.raw(
        `insert into auth_failures (name_key, failures, locked_at, last_failure_at)
         values (?, 1, case when 1 >= ? then now() end, now())
         on conflict (name_key) do update set
           failures = auth_failures.failures + 1,
           locked_at = case when auth_failures.failures + 1 >= ? then now() else auth_failures.locked_at end,
           last_failure_at = now()
         where auth_failures.locked_at is null or auth_failures.locked_at <= ?::timestamptz
         returning failures`,
        [username.toLowerCase(), max, max, ranOutBefore],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : Number(row.failures);
    },

    async clearFailures(username) {
      await knex('auth_failures').where({ name_key: username.toLowerCase() }).del().returning('name_key');
    },

    async countLocked(lockoutMinutes) {
      const q = knex('auth_failures').whereNotNull('locked_at');
      if (lockoutMinutes > 0) q.where('locked_at', '>', knex.raw("now() - make_interval(mins => ?)", [lockoutMinutes]));
      const row = await q.count<{ n: number }[]>({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async findToken(tokenHash): Promise<TokenRecord | undefined> {
      const row = await knex
        .select('t.id as token_id', 't.scope', 't.expires_at', 't.last_used_at', 'u.id', 'u.name', 'u.display_name', 'u.email', 'u.active', knex.raw(GROUPS_OF_U))
        .from('access_tokens as t')
        .join('users as u', 'u.id', 't.user_id')
        .where('t.token_hash', tokenHash)
        .first();
      if (!row) return undefined;
      return { tokenId: row.token_id, scope: row.scope, expiresAt: row.expires_at, lastUsedAt: row.last_used_at, user: toDirectoryUser(row) };
    },

    async touchToken(tokenId) {
      await knex('access_tokens').where({ id: tokenId }).update({ last_used_at: knex.fn.now() });
    },
  };
}
