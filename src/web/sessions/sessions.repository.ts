import type { Knex } from 'knex';
import { GROUPS_OF_U, toDirectoryUser, type UserColumns } from '../../directory/auth-store.repository.ts';
import type { DirectoryUser } from '../../platform/auth/auth-user.ts';
import { storedIdleMs } from './session-idle.ts';

export interface NewSession {
  idHash: string;
  userId: number;
  passwordStamp: string;
  expiresAt: Date;
}

export interface SessionRecord {
  user: DirectoryUser;
  /** The user's current password hash, to compare with the stamp taken at sign-in. */
  passwordHash: string;
  passwordStamp: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** Knex only: the `web_sessions` table. */
export class SessionsRepository {
  constructor(private readonly knex: Knex) {}

  /** Adds the session; with `maxPerUser`, then ends the user's oldest sessions beyond that many. */
  async insert(s: NewSession, maxPerUser?: number): Promise<void> {
    await this.knex('web_sessions').insert({
      id_hash: s.idHash,
      user_id: s.userId,
      password_stamp: s.passwordStamp,
      expires_at: s.expiresAt,
    });
    if (maxPerUser === undefined) return;
    // One statement: concurrent sign-ins of one user each keep the newest `maxPerUser`, so none is left over.
    await this.knex('web_sessions')
      .where('user_id', s.userId)
      .whereIn(
        'id_hash',
        this.knex('web_sessions').select('id_hash').where('user_id', s.userId).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id_hash', order: 'desc' }]).offset(maxPerUser),
      )
      .del();
  }

  /**
   * The session with its user and groups in one query, when it is neither past its absolute end nor idle
   * for longer than `idleMinutes` (counted as session-idle.ts says); undefined otherwise (unknown, ended, or
   * the user is gone).
   */
  async findLive(idHash: string, idleMinutes: number): Promise<SessionRecord | undefined> {
    const row = await this.knex
      .select(
        'u.id',
        'u.name',
        'u.display_name',
        'u.email',
        'u.active',
        'u.password_hash',
        's.password_stamp',
        's.created_at',
        's.last_seen_at',
        this.knex.raw(GROUPS_OF_U),
      )
      .from('web_sessions as s')
      .join('users as u', 'u.id', 's.user_id')
      .where('s.id_hash', idHash)
      .andWhere('s.expires_at', '>', this.knex.fn.now())
      .andWhereRaw(`s.last_seen_at > now() - (? * interval '1 millisecond')`, [storedIdleMs(idleMinutes)])
      .first();
    if (!row) return undefined;
    return {
      user: toDirectoryUser(row as UserColumns),
      passwordHash: row.password_hash,
      passwordStamp: row.password_stamp,
      createdAt: new Date(row.created_at),
      lastSeenAt: new Date(row.last_seen_at),
    };
  }

  async touch(idHash: string): Promise<void> {
    await this.knex('web_sessions').where({ id_hash: idHash }).update({ last_seen_at: this.knex.fn.now() });
  }

  /** Answers whether a session was deleted. */
  async delete(idHash: string): Promise<boolean> {
    const n = await this.knex('web_sessions').where({ id_hash: idHash }).del();
    return n > 0;
  }

  /** Ends every session of a user, in the caller's transaction (`q`: a deactivation's). */
  async deleteOfUser(q: Knex, userId: number): Promise<void> {
    await q('web_sessions').where({ user_id: userId }).del().returning('id_hash');
  }

  /** Removes sessions past their absolute end or idle limit, so the table holds only live ones. */
  async deleteEnded(idleMinutes: number): Promise<number> {
    return this.knex('web_sessions')
      .where('expires_at', '<=', this.knex.fn.now())
      .orWhereRaw(`last_seen_at <= now() - (? * interval '1 millisecond')`, [storedIdleMs(idleMinutes)])
      .del();
  }

  /** Start time of the user's most recent session before `idHash` (the "previous login"), if any. */
  async previousSignIn(userId: number, idHash: string): Promise<Date | undefined> {
    const row = await this.knex('web_sessions').where({ user_id: userId }).whereNot({ id_hash: idHash }).max('created_at as at').first();
    return row?.at ? new Date(row.at as string) : undefined;
  }
}
