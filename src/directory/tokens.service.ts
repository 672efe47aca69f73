import type { Knex } from 'knex';
import { isAdministrator, type AuthUser } from '../platform/auth/auth-user.ts';
import { generateRawToken, hashToken } from '../platform/auth/tokens.ts';
import { DIRECTORY_TOPIC } from '../platform/auth/auth-cache.ts';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import { tokensRepository as tokens, type TokenRow, type TokenScope } from './tokens.repository.ts';
import { tokenNotFound } from './host-api.errors.ts';

const DAY_MS = 86_400_000;

/** Personal access tokens: the raw value exists only in the creation answer. */
export class TokensService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {}

  async create(userId: number, name: string, expirationDays?: number, scope: TokenScope = 'write'): Promise<{ row: TokenRow; rawToken: string }> {
    const rawToken = generateRawToken();
    const expiresAt = expirationDays ? new Date(Date.now() + expirationDays * DAY_MS) : null;
    const row = await tokens.insert(this.knex, { userId, name, tokenHash: hashToken(rawToken), expiresAt, scope });
    return { row, rawToken };
  }

  list(userId: number): Promise<TokenRow[]> {
    return tokens.listForUser(this.knex, userId);
  }

  /** The owner or an administrator revokes; others learn nothing (404, as if it did not exist). */
  async revoke(actor: AuthUser, id: number): Promise<void> {
    const row = await tokens.findById(this.knex, id);
    if (!row || (row.user_id !== actor.id && !isAdministrator(actor))) throw tokenNotFound();
    if (!(await tokens.delete(this.knex, id))) throw tokenNotFound();
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

