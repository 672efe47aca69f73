import type { Knex } from 'knex';
import { usersRepository as users, type UserWithLogin } from './users.repository.ts';
import { groupsRepository as groups } from './groups.repository.ts';
import { groupNotFound } from './host-api.errors.ts';

/** A page in the hosts' paged shape (`startAt`, `maxResults`, `total`, `isLast`, `values`). */
export interface PageOf<T> {
  startAt: number;
  maxResults: number;
  total: number;
  isLast: boolean;
  values: T[];
}

export interface LoginState {
  failedLogins: number;
  locked: boolean;
  /** When the lock ends by itself; null while it holds until an administrator unlocks (LOCKOUT_MINUTES=0). */
  lockedUntil: Date | null;
}

const pageOf = <T>(startAt: number, maxResults: number, total: number, values: T[]): PageOf<T> => ({
  startAt,
  maxResults,
  total,
  isLast: startAt + values.length >= total,
  values,
});

/**
 * The administrators' paged reads of the directory: users with their failed-login state, groups with their
 * member counts, a group's members. `lockoutMinutes` is the configured lock length (0: until unlocked), the
 * same the authenticator applies, so a lock shown as run out is one the next login no longer meets.
 */
export class DirectoryPages {
  constructor(
    private readonly knex: Knex,
    private readonly lockoutMinutes: number,
  ) {}

  loginState(row: Pick<UserWithLogin, 'failures' | 'locked_at'>, now = Date.now()): LoginState {
    const lockedAt = row.locked_at ? new Date(row.locked_at) : null;
    const until = lockedAt && this.lockoutMinutes > 0 ? new Date(lockedAt.getTime() + this.lockoutMinutes * 60_000) : null;
    const locked = lockedAt !== null && (until === null || until.getTime() > now);
    return { failedLogins: row.failures, locked, lockedUntil: locked ? until : null };
  }

  async users(query: string, startAt: number, maxResults: number): Promise<PageOf<UserWithLogin & LoginState>> {
    const { total, rows } = await users.page(this.knex, query, startAt, maxResults);
    return pageOf(startAt, maxResults, total, rows.map((r) => ({ ...r, ...this.loginState(r) })));
  }

  async groups(query: string, startAt: number, maxResults: number) {
    const { total, rows } = await groups.page(this.knex, query, startAt, maxResults);
    return pageOf(startAt, maxResults, total, rows);
  }

  async members(groupName: string, startAt: number, maxResults: number) {
    const group = await groups.findByName(this.knex, groupName);
    if (!group) throw groupNotFound();
    const { total, rows } = await groups.membersPage(this.knex, group.id, startAt, maxResults);
    return { group, page: pageOf(startAt, maxResults, total, rows) };
  }
}
