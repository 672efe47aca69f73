import type { Knex } from 'knex';
import { isAdministrator, type AuthUser } from '../platform/auth/auth-user.ts';
import { generateRawToken, hashToken } from '../platform/auth/tokens.ts';
import { DIRECTORY_TOPIC } from '../platform/auth/auth-cache.ts';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { tokensRepository as tokens, type TokenRow, type TokenScope } from './tokens.repository.ts';
import { tokenNotFound, userNotFound } from './host-api.errors.ts';
import { usersRepository as users } from './users.repository.ts';
import { DirectoryHooks } from './directory-hooks.ts';
import { assertMayManageUser, type Actor } from './system-admin-guard.ts';

const DAY_MS = 86_400_000;

/** Personal access tokens: the raw value exists only in the creation answer. */
export class TokensService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    /** The directory's hooks: token creations and revocations are audited in their transaction. */
    private readonly hooks = new DirectoryHooks(),
  ) {}

  async create(userId: number, name: string, expirationDays?: number, scope: TokenScope = 'write'): Promise<{ row: TokenRow; rawToken: string }> {
    const rawToken = generateRawToken();
    const expiresAt = expirationDays ? new Date(Date.now() + expirationDays * DAY_MS) : null;
    const row = await this.knex.transaction(async (trx) => {
      const owner = await users.findById(trx, userId);
      if (!owner) throw userNotFound();
      const row = await tokens.insert(trx, { userId, name, tokenHash: hashToken(rawToken), expiresAt, scope });
      await this.hooks.changed(trx, {
        actor: owner.name,
        kind: 'token.created',
        target: { type: 'token', id: row.id, name: row.name, owner: owner.name },
        after: { scope: row.scope, expiresAt: row.expires_at?.toISOString() ?? null },
      });
      return row;
    });
    return { row, rawToken };
  }

  list(userId: number): Promise<TokenRow[]> {
    return tokens.listForUser(this.knex, userId);
  }

  /**
   * Any user's tokens, for an administrator (`GET /rest/pat/latest/admin/tokens?username=`); a system
   * administrator's only for a system administrator (system-admin-guard.ts).
   */
  async listOf(userName: string, actor: Actor): Promise<TokenRow[]> {
    return this.knex.transaction(async (trx) => {
      const owner = await users.findByName(trx, userName);
      if (!owner) throw userNotFound();
      await assertMayManageUser(trx, actor, owner.id);
      return tokens.listForUser(trx, owner.id);
    });
  }

  /** The owner or an administrator revokes (not a system administrator's: 403); others learn nothing (404, as if it did not exist). */
  async revoke(actor: AuthUser, id: number): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const row = await tokens.findById(trx, id);
      if (!row || (row.user_id !== actor.id && !isAdministrator(actor))) throw tokenNotFound();
      // An administrator revokes a system administrator's token only as a system administrator.
      await assertMayManageUser(trx, actor, row.user_id);
      if (!(await tokens.delete(trx, id))) throw tokenNotFound();
      const owner = row.user_id === actor.id ? actor.name : ((await users.findById(trx, row.user_id))?.name ?? '');
      await this.hooks.changed(trx, { actor: actor.name, kind: 'token.revoked', target: { type: 'token', id: row.id, name: row.name, owner } });
    });
    // Every node drops cached tokens before the revocation is answered.
    await this.changes.publish(DIRECTORY_TOPIC);
  }
}

export function presentToken(row: TokenRow, rawToken?: string) {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    createdAt: row.created_at.toISOString(),
    ...(row.expires_at ? { expiringAt: row.expires_at.toISOString() } : {}),
    ...(row.last_used_at ? { lastAccessedAt: row.last_used_at.toISOString() } : {}),
    ...(rawToken ? { rawToken } : {}),
  };
}

