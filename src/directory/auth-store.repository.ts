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

/** The column holds at most 64 characters; a client key is far shorter (an IPv6 network is at most 43). */
const addressKey = (address: string) => address.slice(0, 64);

/**
 * The directory's side of authentication: one query per cache miss, for Basic (user, groups and the
 * failed-login state of the name and of the asking address together) and for Bearer.
 */
export function createAuthStore(knex: Knex): AuthStore {
  return {
    async findLogin(username, address = '-', windows = { seriesMinutes: 15 }): Promise<LoginRecord> {
      const key = username.toLowerCase();
      const row = await knex
        .select('u.id', 'u.name', 'u.display_name', 'u.email', 'u.active', 'u.password_hash', 'af.failures as address_failures', 'af.locked_at', knex.raw(GROUPS_OF_U))
        // The name's total counts only while its series goes on (see LoginWindows).
        .select(knex.raw('case when f.last_failure_at > now() - make_interval(mins => ?) then f.failures else 0 end as total', [windows.seriesMinutes]))
        .from(knex.raw('(select ?::text as k, ?::text as a) as q', [key, addressKey(address)]))
        .leftJoin('users as u', 'u.name_key', 'q.k')
        .leftJoin('auth_failures as f', 'f.name_key', 'q.k')
        .leftJoin('auth_address_failures as af', (j) => j.on('af.name_key', 'q.k').andOn('af.address_key', 'q.a'))
        .first();
      const exists = row && row.id !== null && row.id !== undefined;
      return {
        user: exists ? { ...toDirectoryUser(row), passwordHash: row.password_hash } : undefined,
        failures: Number(row?.total ?? 0),
        addressFailures: row?.address_failures ?? 0,
        lockedAt: row?.locked_at ?? null,
      };
    },

    async recordFailure(username, address, { maxAttempts: max, lockoutMinutes, seriesMinutes }) {
      // One statement, so concurrent attempts on several nodes all count, in one order, and the lock is set by
      // the attempt that reaches `max`. A name locked now for this address is left alone (no row comes back, and
      // the name's total is not counted either); a lock that ran out is renewed by the next attempt, which is
      // evaluated (one more wrong password locks again). "Ran out" by this process's clock, as the
      // authenticator decided it when it read the lock.
      const ranOutBefore = lockoutMinutes > 0 ? new Date(Date.now() - lockoutMinutes * 60_000) : null;
      const key = username.toLowerCase();
      const result = await knex.raw(
        `with a as (
           insert into auth_address_failures as f (name_key, address_key, failures, locked_at, last_failure_at)
           values (?, ?, 1, case when 1 >= ? then now() end, now())
           on conflict (name_key, address_key) do update set
             failures = f.failures + 1,
             locked_at = case when f.failures + 1 >= ? then now() else f.locked_at end,
             last_failure_at = now()
           where f.locked_at is null or f.locked_at <= ?::timestamptz
           returning failures, locked_at
         ), n as (
           insert into auth_failures as t (name_key, failures, locked_at, last_failure_at)
           select ?, 1, a.locked_at, now() from a
           on conflict (name_key) do update set
             failures = case when t.last_failure_at > now() - make_interval(mins => ?) then t.failures + 1 else 1 end,
             locked_at = coalesce(excluded.locked_at, t.locked_at),
             last_failure_at = now()
           returning failures
         )
         select a.failures as address, n.failures as total from a cross join n`,
        [key, addressKey(address), max, max, ranOutBefore, key, seriesMinutes],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : { address: Number(row.address), total: Number(row.total) };
    },

    async clearFailures(username, address, takeBack) {
      const key = username.toLowerCase();
      if (!takeBack) {
        await knex('auth_address_failures').where({ name_key: key, address_key: addressKey(address) }).del().returning('name_key');
        return;
      }
      // The attempt leaves the name's total; a total that comes back to nothing leaves no row behind.
      await knex.raw(
        `with d as (delete from auth_address_failures where name_key = ? and address_key = ? returning 1),
         u as (update auth_failures set failures = greatest(failures - 1, 0)
               where name_key = ? and (failures > 1 or locked_at is not null) returning 1)
         delete from auth_failures where name_key = ? and failures <= 1 and locked_at is null`,
        [key, addressKey(address), key, key],
      );
    },

    async countLocked(lockoutMinutes) {
      const q = knex('auth_address_failures').whereNotNull('locked_at');
      if (lockoutMinutes > 0) q.where('locked_at', '>', knex.raw('now() - make_interval(mins => ?)', [lockoutMinutes]));
      const row = await q.countDistinct<{ n: number }[]>({ n: 'name_key' }).first();
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
