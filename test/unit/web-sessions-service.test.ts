import { describe, expect, it, vi } from 'vitest';
import { Authenticator } from '../../src/platform/auth/authenticator.ts';
import { PasswordHasher } from '../../src/platform/auth/password-hasher.ts';
import { LocalChangeFeed } from '../../src/platform/events/change-feed.ts';
import type { AuthStore, DirectoryUser } from '../../src/platform/auth/auth-user.ts';
import { hashSessionId } from '../../src/web/sessions/session-cookie.ts';
import type { NewSession, SessionRecord, SessionsRepository } from '../../src/web/sessions/sessions.repository.ts';
import { passwordStamp, SessionsService } from '../../src/web/sessions/sessions.service.ts';

const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 });
const profile: DirectoryUser = { id: 1, name: 'ann', displayName: 'Ann', email: '', active: true, groups: ['users'], isAdmin: false, isSystemAdmin: false };

/** The session store as the repository keeps it, in memory, with the idle and absolute rules of findLive. */
class MemoryRepo {
  rows = new Map<string, NewSession & { lastSeenAt: Date; createdAt: Date }>();
  constructor(public currentHash: string, public user: DirectoryUser = profile) {}
  async insert(s: NewSession) {
    this.rows.set(s.idHash, { ...s, lastSeenAt: new Date(), createdAt: new Date() });
  }
  async findLive(idHash: string, idleMinutes: number): Promise<SessionRecord | undefined> {
    const r = this.rows.get(idHash);
    if (!r || r.expiresAt.getTime() <= Date.now() || r.lastSeenAt.getTime() <= Date.now() - idleMinutes * 60_000) return undefined;
    return { user: this.user, passwordHash: this.currentHash, passwordStamp: r.passwordStamp, createdAt: r.createdAt, lastSeenAt: r.lastSeenAt };
  }
  touch = vi.fn(async (idHash: string) => {
    const r = this.rows.get(idHash);
    if (r) r.lastSeenAt = new Date();
  });
  async delete(idHash: string) {
    return this.rows.delete(idHash);
  }
  deleteEnded = vi.fn(async () => 0);
  async previousSignIn() {
    return undefined;
  }
}

async function setup(opts: { failures?: number; lockedAt?: Date | null } = {}) {
  const passwordHash = await hasher.hash('pw');
  const store = {
    findLogin: vi.fn(async (name: string) => ({
      user: name === 'ann' ? { ...profile, passwordHash } : undefined,
      failures: opts.failures ?? 0,
      addressFailures: opts.failures ?? 0,
      lockedAt: opts.lockedAt ?? null,
    })),
    recordFailure: vi.fn(async () => ({ address: 1, total: 1 })),
    clearFailures: vi.fn(async () => undefined),
    findToken: vi.fn(async () => undefined),
    touchToken: vi.fn(async () => undefined),
    countLocked: vi.fn(async () => 0),
  } satisfies AuthStore;
  const auth = new Authenticator({ store, hasher, changes: new LocalChangeFeed(), maxAttempts: 3, lockoutMinutes: 0 });
  const repo = new MemoryRepo(passwordHash);
  const sessions = new SessionsService(repo as unknown as SessionsRepository, auth, { idleMinutes: 30, maxHours: 12 });
  return { store, repo, sessions, passwordHash };
}

describe('SessionsService', () => {
  it('signs in with a password and stores only the hash of the id, the password stamp and the absolute end', async () => {
    const { repo, sessions, passwordHash } = await setup({ failures: 2 });
    const result = await sessions.signIn('ann', 'pw');
    if (!result.ok) throw new Error('sign-in failed');
    expect(result.priorFailures).toBe(2);
    expect(result.user).toMatchObject({ name: 'ann', via: 'session' });
    const row = repo.rows.get(hashSessionId(result.id))!;
    expect(row.passwordStamp).toBe(passwordStamp(passwordHash));
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    expect([...repo.rows.keys()]).not.toContain(result.id);
    expect(repo.deleteEnded).toHaveBeenCalledWith(30);
    expect(await sessions.resolve(result.id)).toMatchObject({ name: 'ann', via: 'session' });
  });

  it('counts failures as Basic does and answers the same for an unknown user and a wrong password', async () => {
    const { store, repo, sessions } = await setup();
    expect(await sessions.signIn('ann', 'wrong')).toEqual({ ok: false, reason: 'failed' });
    expect(await sessions.signIn('nobody', 'pw')).toEqual({ ok: false, reason: 'failed' });
    expect(store.recordFailure).toHaveBeenCalledTimes(2);
    expect(repo.rows.size).toBe(0);
  });

  it('refuses a locked name without creating a session, even with the right password', async () => {
    const { repo, sessions } = await setup({ lockedAt: new Date() });
    expect(await sessions.signIn('ann', 'pw')).toEqual({ ok: false, reason: 'denied' });
    expect(repo.rows.size).toBe(0);
  });

  it('ends a session whose user changed the password since', async () => {
    const { repo, sessions } = await setup();
    const result = await sessions.signIn('ann', 'pw');
    if (!result.ok) throw new Error('sign-in failed');
    repo.currentHash = await hasher.hash('other');
    expect(await sessions.resolve(result.id)).toBeUndefined();
    expect(repo.rows.size).toBe(0);
  });

  it('refuses an inactive user', async () => {
    const { repo, sessions } = await setup();
    const result = await sessions.signIn('ann', 'pw');
    if (!result.ok) throw new Error('sign-in failed');
    repo.user = { ...profile, active: false };
    expect(await sessions.resolve(result.id)).toBeUndefined();
  });

  it('ends after sign-out, and signing out twice answers false', async () => {
    const { sessions } = await setup();
    const result = await sessions.signIn('ann', 'pw');
    if (!result.ok) throw new Error('sign-in failed');
    expect(await sessions.signOut(result.id)).toBe(true);
    expect(await sessions.resolve(result.id)).toBeUndefined();
    expect(await sessions.signOut(result.id)).toBe(false);
  });

  it('records use at most once a minute, and an idle session ends', async () => {
    const { repo, sessions } = await setup();
    const result = await sessions.signIn('ann', 'pw');
    if (!result.ok) throw new Error('sign-in failed');
    await sessions.resolve(result.id);
    expect(repo.touch).not.toHaveBeenCalled();
    const row = repo.rows.get(hashSessionId(result.id))!;
    row.lastSeenAt = new Date(Date.now() - 5 * 60_000);
    await sessions.resolve(result.id);
    expect(repo.touch).toHaveBeenCalledTimes(1);
    row.lastSeenAt = new Date(Date.now() - 31 * 60_000);
    expect(await sessions.resolve(result.id)).toBeUndefined();
  });
});
