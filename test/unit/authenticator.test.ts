import { describe, expect, it, vi } from 'vitest';
import { Authenticator } from '../../src/platform/auth/authenticator.ts';
import { DIRECTORY_TOPIC } from '../../src/platform/auth/auth-cache.ts';
import { PasswordHasher } from '../../src/platform/auth/password-hasher.ts';
import { LocalChangeFeed, type ChangeFeed } from '../../src/platform/events/change-feed.ts';
import type { AuthStore, DirectoryUser } from '../../src/platform/auth/auth-user.ts';
import { hashToken } from '../../src/platform/auth/tokens.ts';

const basicHeader = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 });
const profile: DirectoryUser = { id: 1, name: 'ann', displayName: 'Ann', email: '', active: true, groups: ['users'], isAdmin: false, isSystemAdmin: false };

async function setup(changes: ChangeFeed = new LocalChangeFeed()) {
  const passwordHash = await hasher.hash('pw');
  const store = {
    findLogin: vi.fn(async () => ({ user: { ...profile, passwordHash }, failures: 0, addressFailures: 0, lockedAt: null })),
    recordFailure: vi.fn(async () => ({ address: 1, total: 1 })),
    clearFailures: vi.fn(async () => undefined),
    findToken: vi.fn(async (h: string) => (h === hashToken('tok') ? { tokenId: 7, scope: 'write' as const, expiresAt: null, lastUsedAt: new Date(), user: profile } : undefined)),
    touchToken: vi.fn(async () => undefined),
    countLocked: vi.fn(async () => 0),
  } satisfies AuthStore;
  const verify = vi.spyOn(hasher, 'verify');
  verify.mockClear();
  const auth = new Authenticator({ store, hasher, changes, maxAttempts: 3, lockoutMinutes: 0 });
  return { store, verify, auth, changes };
}

describe('Authenticator cache', () => {
  it('answers a repeated Basic login from memory while the change feed is live', async () => {
    const { store, verify, auth } = await setup();
    expect((await auth.basicHeader(basicHeader('ann', 'pw'))).ok).toBe(true);
    expect((await auth.basicHeader(basicHeader('ann', 'pw'))).ok).toBe(true);
    expect(store.findLogin).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('hands every request the same frozen user, so no request can change what the next one sees', async () => {
    const { auth } = await setup();
    const first = await auth.bearer('tok');
    const cached = auth.cachedBearer('tok');
    expect(first.ok && cached).toBe(first.ok ? first.user : undefined);
    expect(cached).toMatchObject({ name: 'ann', via: 'bearer', groups: ['users'] });
    expect(Object.isFrozen(cached)).toBe(true);
    expect(Object.isFrozen(cached?.groups)).toBe(true);
    await auth.basicHeader(basicHeader('ann', 'pw'));
    const basic = auth.cachedBasic(basicHeader('ann', 'pw'));
    expect(basic).toMatchObject({ name: 'ann', via: 'basic' });
    expect(Object.isFrozen(basic)).toBe(true);
  });

  it('refuses a name longer than any account can have after the slow hash, without storing a failure', async () => {
    const { store, auth } = await setup();
    const burn = vi.spyOn(hasher, 'burn');
    burn.mockClear();
    expect(await auth.basicHeader(basicHeader('x'.repeat(256), 'pw'))).toEqual({ ok: false, reason: 'failed' });
    expect(burn).toHaveBeenCalledTimes(1);
    expect(store.findLogin).not.toHaveBeenCalled();
    expect(store.recordFailure).not.toHaveBeenCalled();
  });

  it('never caches a wrong password', async () => {
    const { store, auth } = await setup();
    expect((await auth.basicHeader(basicHeader('ann', 'bad'))).ok).toBe(false);
    expect((await auth.basicHeader(basicHeader('ann', 'bad'))).ok).toBe(false);
    expect(store.findLogin).toHaveBeenCalledTimes(2);
    expect(store.recordFailure).toHaveBeenCalledTimes(2);
  });

  it('forgets everything when the directory changes', async () => {
    const { store, auth, changes } = await setup();
    await auth.basicHeader(basicHeader('ann', 'pw'));
    await auth.bearer('tok');
    await changes.publish(DIRECTORY_TOPIC);
    await auth.basicHeader(basicHeader('ann', 'pw'));
    await auth.bearer('tok');
    expect(store.findLogin).toHaveBeenCalledTimes(2);
    expect(store.findToken).toHaveBeenCalledTimes(2);
  });

  it('reads the database on every request while the feed is down, skipping only the slow hash', async () => {
    const down: ChangeFeed = { live: false, publish: async () => undefined, on: () => () => undefined, counter: () => () => 0, close: async () => undefined };
    const { store, verify, auth } = await setup(down);
    await auth.basicHeader(basicHeader('ann', 'pw'));
    await auth.basicHeader(basicHeader('ann', 'pw'));
    await auth.bearer('tok');
    await auth.bearer('tok');
    expect(store.findLogin).toHaveBeenCalledTimes(2);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(store.findToken).toHaveBeenCalledTimes(2);
  });

  it('refuses a malformed Basic header without asking the directory', async () => {
    const { store, auth } = await setup();
    expect(await auth.basicHeader('Basic bm9jb2xvbg==')).toEqual({ ok: false, reason: 'failed' });
    expect(store.findLogin).not.toHaveBeenCalled();
  });

  it('refuses an unknown token and does not cache the refusal as a success', async () => {
    const { auth } = await setup();
    expect(await auth.bearer('nope')).toEqual({ ok: false, reason: 'failed' });
    expect((await auth.bearer('tok')).ok).toBe(true);
  });
});
