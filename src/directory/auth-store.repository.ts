import type { Knex } from 'knex';
import type { AuthStore, LoginRecord, TokenRecord } from '../platform/auth/auth-user.ts';

const ADMIN_GROUPS = ['administrators', 'system-administrators'];

/** Role flags of the user row `u`, computed in the same query as the login lookup. */
function roleColumns(knex: Knex) {
  return [
    knex.raw(
      `exists(select 1 from group_members gm join groups g on g.id = gm.group_id
              where gm.user_id = u.id and g.name_key in (?, ?)) as is_admin`,
      ADMIN_GROUPS,
    ),
    knex.raw(
      `exists(select 1 from group_members gm join groups g on g.id = gm.group_id
              where gm.user_id = u.id and g.name_key = 'system-administrators') as is_system_admin`,
    ),
  ];
}

/**
 * The directory's side of authentication: one query per request for Basic (user, roles and the
 * failed-login state of the name together) and one for Bearer.
 */
export function createAuthStore(knex: Knex): AuthStore {
  return {
    async findLogin(username): Promise<LoginRecord> {
      const key = username.toLowerCase();
      const row = await knex
        .select(
          'u.id',
          'u.name',
          'u.display_name',
          'u.active',
          'u.password_hash',
          'f.failures',
          'f.locked_at',
          ...roleColumns(knex),
        )
        .from(knex.raw('(select ?::text as k) as q', [key]))
        .leftJoin('users as u', 'u.name_key', 'q.k')
        .leftJoin('auth_failures as f', 'f.name_key', 'q.k')
        .first();
      return {
        user:
          row && row.id !== null && row.id !== undefined
            ? {
                id: row.id,
                name: row.name,
                displayName: row.display_name,
                active: row.active,
                passwordHash: row.password_hash,
                isAdmin: row.is_admin,
                isSystemAdmin: row.is_system_admin,
              }
            : undefined,
        failures: row?.failures ?? 0,
        lockedAt: row?.locked_at ?? null,
      };
    },

    async recordFailure(username, max) {
      // One statement, so concurrent failures on several nodes all count and the lock is set exactly once.
      await knex.raw(
        `insert into auth_failures (name_key, failures, locked_at, last_failure_at)
         values (?, 1, case when 1 >= ? then now() end, now())
         on conflict (name_key) do update set
           failures = auth_failures.failures + 1,
           locked_at = case when auth_failures.failures + 1 >= ? then now() else auth_failures.locked_at end,
           last_failure_at = now()`,
        [username.toLowerCase(), max, max],
      );
    },

    async clearFailures(username) {
      await knex('auth_failures').where({ name_key: username.toLowerCase() }).del().returning('name_key');
    },

    async findToken(tokenHash): Promise<TokenRecord | undefined> {
      const row = await knex
        .select('t.id as token_id', 't.expires_at', 't.last_used_at', 'u.id', 'u.name', 'u.display_name', 'u.active', ...roleColumns(knex))
        .from('access_tokens as t')
        .join('users as u', 'u.id', 't.user_id')
        .where('t.token_hash', tokenHash)
        .first();
      if (!row) return undefined;
      return {
        tokenId: row.token_id,
        expiresAt: row.expires_at,
        lastUsedAt: row.last_used_at,
        user: { id: row.id, name: row.name, displayName: row.display_name, active: row.active, isAdmin: row.is_admin, isSystemAdmin: row.is_system_admin },
      };
    },

    async touchToken(tokenId) {
      await knex('access_tokens').where({ id: tokenId }).update({ last_used_at: knex.fn.now() });
    },
  };
}
