// The Authenticator under issue 30: the lockout holds under concurrent guesses, a failed login never evicts
// another name's cached verification, one credential is checked once however many ask at once (and again in
// the background before it expires), and the limits of the hash pool and of the client address.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Authenticator } from '../../src/platform/auth/authenticator.ts';
import { AUTH_TTL_MS, loginTopic } from '../../src/platform/auth/auth-cache.ts';
import { HashPool } from '../../src/platform/auth/hash-pool.ts';
import { PasswordHasher } from '../../src/platform/auth/password-hasher.ts';
import { LocalChangeFeed } from '../../src/platform/events/change-feed.ts';
import type { AuthStore, DirectoryUser, LoginWindows, TokenRecord } from '../../src/platform/auth/auth-user.ts';
import { AppError } from '../../src/platform/http/app-error.ts';
import { hashToken } from '../../src/platform/auth/tokens.ts';

const basicHeader = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const cost = { N: 1024, r: 8, p: 1 };
const profile = (id: number, name: string): DirectoryUser => ({ id, name, displayName: name, email: '', active: true, groups: ['users'], isAdmin: false, isSystemAdmin: false });

/**
 * The directory's failed-login table in memory, with the rules of auth-store.repository.ts: recordFailure is
 * one atomic step (as its single SQL statement is) that leaves a locked name alone.
 */
class MemoryStore implements AuthStore {
  readonly users = new Map<string, DirectoryUser & { passwordHash: string }>();
  /** Per name and address: failures in a row and the lock. */
  readonly failures = new Map<string, { failures: number; lockedAt: Date | null }>();
  /** Per name: failures from all addresses. */
  readonly totals = new Map<string, number>();
  findLogin = vi.fn(async (username: string, address = '-') => {
    const key = username.toLowerCase();
    const f = this.failures.get(`${key} ${address}`);
    return { user: this.users.get(key), failures: this.totals.get(key) ?? 0, addressFailures: f?.failures ?? 0, lockedAt: f?.lockedAt ?? null };
  });
  recordFailure = vi.fn(async (username: string, address: string, { maxAttempts: max, lockoutMinutes }: LoginWindows) => {
    const key = username.toLowerCase();
    const f = this.failures.get(`${key} ${address}`) ?? { failures: 0, lockedAt: null };
    const locked = f.lockedAt !== null && (lockoutMinutes === 0 || Date.now() - f.lockedAt.getTime() < lockoutMinutes * 60_000);
    if (locked) return undefined;
    f.failures++;
    if (f.failures >= max) f.lockedAt = new Date();
    this.failures.set(`${key} ${address}`, f);
    this.totals.set(key, (this.totals.get(key) ?? 0) + 1);
    return { address: f.failures, total: this.totals.get(key)! };
  });
  clearFailures = vi.fn(async (username: string, address: string, takeBack: boolean) => {
    const key = username.toLowerCase();
    this.failures.delete(`${key} ${address}`);
    if (takeBack) this.totals.set(key, Math.max(0, (this.totals.get(key) ?? 0) - 1));
  });
  countLocked = vi.fn(async () => 0);
  findToken = vi.fn(async (_tokenHash: string): Promise<TokenRecord | undefined> => undefined);
  touchToken = vi.fn(async () => undefined);
}

async function setup(opts: { addressLimit?: { failures: number; minutes: number }; pool?: HashPool; maxAttempts?: number; delay?: { afterFailures: number; maxSeconds: number }; sleep?: (ms: number) => Promise<void> } = {}) {
  const hasher = new PasswordHasher(cost, opts.pool ?? new HashPool({ concurrency: 2, maxWaitMs: 60_000 }));
  const store = new MemoryStore();
  for (const [id, name] of [[1, 'ann'], [2, 'bob'], [3, 'victim']] as const) {
    store.users.set(name, { ...profile(id, name), passwordHash: await hasher.hash(`${name}-pw`) });
  }
  const verify = vi.spyOn(hasher, 'verify');
  const changes = new LocalChangeFeed();
  const publish = vi.spyOn(changes, 'publish');
  const auth = new Authenticator({ store, hasher, changes, maxAttempts: opts.maxAttempts ?? 3, lockoutMinutes: 0, addressLimit: opts.addressLimit, delay: opts.delay, sleep: opts.sleep });
  return { store, hasher, verify, auth, publish };
}

/** A name whose login topic is not `other`'s, so that a failure of one never touches the other's bucket. */
function nameOutsideBucketOf(other: string): string {
  for (let i = 0; ; i++) if (loginTopic(`stranger${i}`) !== loginTopic(other)) return `stranger${i}`;
}

afterEach(() => vi.useRealTimers());

describe('the lockout under concurrent guesses', () => {
  it('checks exactly MAX_AUTH_ATTEMPTS of ten concurrent wrong guesses, refuses the rest as locked, and then the right password', async () => {
    const { auth, verify, store } = await setup({ maxAttempts: 3 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => auth.basicHeader(basicHeader('victim', `guess-${i}`))));
    expect(outcomes.filter((o) => !o.ok && o.reason === 'failed')).toHaveLength(3);
    expect(outcomes.filter((o) => !o.ok && o.reason === 'denied')).toHaveLength(7);
    expect(verify).toHaveBeenCalledTimes(3);
    expect(store.failures.get('victim -')?.lockedAt).not.toBeNull();
    expect(await auth.basicHeader(basicHeader('victim', 'victim-pw'))).toEqual({ ok: false, reason: 'denied' });
    expect(await auth.password('victim', 'victim-pw')).toEqual({ ok: false, reason: 'denied' });
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('counts a guess before its hash, and a success takes the count back', async () => {
    const { auth, store, verify } = await setup();
    let countedDuringHash: number | undefined;
    verify.mockImplementationOnce(async () => {
      countedDuringHash = store.failures.get('ann -')?.failures;
      return true;
    });
    expect((await auth.basicHeader(basicHeader('ann', 'ann-pw'))).ok).toBe(true);
    expect(countedDuringHash).toBe(1);
    expect(store.failures.get('ann -')).toBeUndefined();
  });
});

describe('caches a stranger cannot empty', () => {
  it('keeps another name\'s cached verification through failed logins: no database read, no hash', async () => {
    const { auth, store, verify, publish } = await setup();
    const ann = basicHeader('ann', 'ann-pw');
    expect((await auth.basicHeader(ann)).ok).toBe(true);
    const stranger = nameOutsideBucketOf('ann');
    for (let i = 0; i < 5; i++) expect((await auth.basicHeader(basicHeader(stranger, `x${i}`))).ok).toBe(false);
    expect(publish).toHaveBeenCalledWith(loginTopic(stranger));
    store.findLogin.mockClear();
    verify.mockClear();
    expect(auth.cachedBasic(ann)).toMatchObject({ name: 'ann' });
    expect((await auth.basicHeader(ann)).ok).toBe(true);
    expect(auth.peekCachedHeader(ann)?.user).toMatchObject({ name: 'ann' });
    expect(store.findLogin).not.toHaveBeenCalled();
    expect(verify).not.toHaveBeenCalled();
  });

  it('looks again (one read, no hash) at a cached credential whose own name failed, and resets its counter', async () => {
    const { auth, store, verify } = await setup();
    const ann = basicHeader('ann', 'ann-pw');
    expect((await auth.basicHeader(ann)).ok).toBe(true);
    expect((await auth.basicHeader(basicHeader('ann', 'wrong'))).ok).toBe(false);
    expect(store.failures.get('ann -')?.failures).toBe(1);
    store.findLogin.mockClear();
    verify.mockClear();
    // The hot path declines (the name failed since), the check reads the name once and skips the hash.
    expect(auth.cachedBasic(ann)).toBeUndefined();
    expect((await auth.basicHeader(ann)).ok).toBe(true);
    expect(store.findLogin).toHaveBeenCalledTimes(1);
    expect(verify).not.toHaveBeenCalled();
    expect(store.failures.get('ann -')).toBeUndefined();
    // And it is current again.
    expect(auth.cachedBasic(ann)).toMatchObject({ name: 'ann' });
  });

  it('refuses a cached credential whose name was locked since, even the exact header it verified', async () => {
    const { auth } = await setup({ maxAttempts: 2 });
    const ann = basicHeader('ann', 'ann-pw');
    expect((await auth.basicHeader(ann)).ok).toBe(true);
    for (let i = 0; i < 2; i++) await auth.basicHeader(basicHeader('ann', `wrong-${i}`));
    expect(auth.cachedBasic(ann)).toBeUndefined();
    expect(auth.peekCachedHeader(ann)).toBeUndefined();
    expect(await auth.basicHeader(ann)).toEqual({ ok: false, reason: 'denied' });
  });
});

describe('one check per credential', () => {
  it('runs one hash and one read for 32 concurrent requests with the same uncached header', async () => {
    const { auth, store, verify } = await setup();
    const outcomes = await Promise.all(Array.from({ length: 32 }, () => auth.basicHeader(basicHeader('bob', 'bob-pw'))));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(store.findLogin).toHaveBeenCalledTimes(1);
  });

  it('checks an entry in use again before it expires (one read, no hash), so it never expires under load', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { auth, store, verify } = await setup();
    const bob = basicHeader('bob', 'bob-pw');
    expect((await auth.basicHeader(bob)).ok).toBe(true);
    store.findLogin.mockClear();
    verify.mockClear();
    for (let round = 0; round < 4; round++) {
      // Late in the entry's life: still answered from memory, and looked at again in the background.
      vi.setSystemTime(Date.now() + AUTH_TTL_MS - 5_000);
      expect(auth.cachedBasic(bob)).toMatchObject({ name: 'bob' });
      await vi.waitFor(() => expect(store.findLogin).toHaveBeenCalledTimes(round + 1));
      await new Promise((r) => setTimeout(r, 0));
    }
    // Four lifetimes later the entry is still there, and no hash ran.
    expect(auth.cachedBasic(bob)).toMatchObject({ name: 'bob' });
    expect(verify).not.toHaveBeenCalled();
  });
});

describe('the limits of a login', () => {
  it('answers 503 LOGIN_BUSY with Retry-After when the hash would wait too long, counting nothing', async () => {
    const pool = new HashPool({ concurrency: 1, maxWaitMs: 1000 });
    vi.spyOn(pool, 'expectedWaitMs').mockReturnValue(4500);
    const { auth, store } = await setup({ pool });
    await expect(auth.basicHeader(basicHeader('ann', 'whatever'))).rejects.toMatchObject({ status: 503, code: 'LOGIN_BUSY', headers: { 'Retry-After': '5' } });
    await expect(auth.password('ann', 'whatever')).rejects.toBeInstanceOf(AppError);
    expect(store.recordFailure).not.toHaveBeenCalled();
  });

  it('throttles failures per address across names (429), while another address and cached credentials go on', async () => {
    const { auth, store, verify } = await setup({ addressLimit: { failures: 2, minutes: 10 } });
    const ann = basicHeader('ann', 'ann-pw');
    expect((await auth.basicHeader(ann, undefined, '10.0.0.9')).ok).toBe(true);
    expect((await auth.basicHeader(basicHeader('nobody1', 'pw'), undefined, '10.0.0.9')).ok).toBe(false);
    expect((await auth.basicHeader(basicHeader('nobody2', 'pw'), undefined, '10.0.0.9')).ok).toBe(false);
    verify.mockClear();
    store.recordFailure.mockClear();
    const refused = auth.basicHeader(basicHeader('bob', 'bob-pw'), undefined, '10.0.0.9');
    await expect(refused).rejects.toMatchObject({ status: 429, code: 'TOO_MANY_FAILED_LOGINS' });
    expect(verify).not.toHaveBeenCalled();
    expect(store.recordFailure).not.toHaveBeenCalled();
    // A credential verified before is no guess: it keeps working from that address.
    expect((await auth.basicHeader(ann, undefined, '10.0.0.9')).ok).toBe(true);
    expect((await auth.basicHeader(basicHeader('bob', 'bob-pw'), undefined, '10.0.0.10')).ok).toBe(true);
    await expect(auth.password('bob', 'bob-pw', '10.0.0.9')).rejects.toMatchObject({ status: 429 });
  });

  it('refuses a login from a throttled address before any database read or hash: 100 more guesses cost a map lookup each', async () => {
    const { auth, store, verify } = await setup({ addressLimit: { failures: 2, minutes: 10 } });
    for (const name of ['nobody1', 'ann']) expect((await auth.basicHeader(basicHeader(name, 'wrong'), undefined, '10.0.0.9')).ok).toBe(false);
    for (const spy of [store.findLogin, store.recordFailure, store.clearFailures, verify]) spy.mockClear();
    const refused = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0 ? auth.basicHeader(basicHeader(`user${i}`, `guess-${i}`), undefined, '10.0.0.9') : auth.password(`user${i}`, `guess-${i}`, '10.0.0.9'),
      ),
    );
    expect(refused.every((r) => r.status === 'rejected' && (r.reason as AppError).status === 429)).toBe(true);
    expect(store.findLogin).not.toHaveBeenCalled();
    expect(store.recordFailure).not.toHaveBeenCalled();
    expect(store.clearFailures).not.toHaveBeenCalled();
    expect(verify).not.toHaveBeenCalled();
  });

  it('charges a failing address for logins refused as busy (503), so a flood is throttled at once; a client without failures is never charged', async () => {
    const pool = new HashPool({ concurrency: 1, maxWaitMs: 1000 });
    const wait = vi.spyOn(pool, 'expectedWaitMs');
    const { auth, store, verify } = await setup({ pool, addressLimit: { failures: 5, minutes: 10 } });
    wait.mockReturnValue(12_000);
    // A client with no failures: refused as busy (past the 10 s it may queue) as often as it asks, and nothing is held against it.
    for (let i = 0; i < 10; i++) await expect(auth.basicHeader(basicHeader('ann', 'ann-pw'), undefined, '10.0.0.1')).rejects.toMatchObject({ status: 503 });
    wait.mockReturnValue(0);
    expect((await auth.basicHeader(basicHeader('ann', 'ann-pw'), undefined, '10.0.0.1')).ok).toBe(true);
    // A guessing client: one failure checked, then four busy refusals fill its window; then 429, busy or not.
    expect((await auth.basicHeader(basicHeader('nobody0', 'x'), undefined, '10.0.0.2')).ok).toBe(false);
    wait.mockReturnValue(4500);
    for (let i = 1; i <= 4; i++) await expect(auth.basicHeader(basicHeader(`nobody${i}`, 'x'), undefined, '10.0.0.2')).rejects.toMatchObject({ status: 503 });
    await expect(auth.basicHeader(basicHeader('nobody5', 'x'), undefined, '10.0.0.2')).rejects.toMatchObject({ status: 429, code: 'TOO_MANY_FAILED_LOGINS' });
    wait.mockReturnValue(0);
    verify.mockClear();
    store.findLogin.mockClear();
    await expect(auth.basicHeader(basicHeader('bob', 'bob-pw'), undefined, '10.0.0.2')).rejects.toMatchObject({ status: 429 });
    expect(verify).not.toHaveBeenCalled();
    expect(store.findLogin).not.toHaveBeenCalled();
  });

  it('throttles wrong Bearer tokens per address like wrong passwords (shared count), before the token is looked up', async () => {
    const { auth, store } = await setup({ addressLimit: { failures: 3, minutes: 10 } });
    const good = 'good-token';
    store.findToken.mockImplementation(async (hash: string) =>
      hash === hashToken(good) ? { tokenId: 7, scope: 'write' as const, expiresAt: null, lastUsedAt: null, user: profile(1, 'ann') } : undefined,
    );
    // Known to the cache before the guessing starts: it keeps working from the throttled address.
    expect((await auth.bearer(good, undefined, '10.0.0.9')).ok).toBe(true);
    expect(await auth.basicHeader(basicHeader('ann', 'wrong'), undefined, '10.0.0.9')).toEqual({ ok: false, reason: 'failed' });
    expect(await auth.bearer('guess-1', undefined, '10.0.0.9')).toEqual({ ok: false, reason: 'failed' });
    expect(await auth.bearer('guess-2', undefined, '10.0.0.9')).toEqual({ ok: false, reason: 'failed' });
    store.findToken.mockClear();
    for (let i = 3; i < 50; i++) {
      await expect(auth.bearer(`guess-${i}`, undefined, '10.0.0.9')).rejects.toMatchObject({ status: 429, code: 'TOO_MANY_FAILED_LOGINS', headers: { 'Retry-After': '600' } });
    }
    expect(store.findToken).not.toHaveBeenCalled();
    // Wrong passwords from there are refused too (one count), another address goes on, the cached token works.
    await expect(auth.basicHeader(basicHeader('bob', 'bob-pw'), undefined, '10.0.0.9')).rejects.toMatchObject({ status: 429 });
    expect(await auth.bearer('guess-x', undefined, '10.0.0.10')).toEqual({ ok: false, reason: 'failed' });
    expect(auth.cachedBearer(good)).toMatchObject({ name: 'ann' });
  });

  it('checks an unknown name against a hash of the same cost as a real one, and hashes nothing else for it', async () => {
    const { auth, verify, hasher } = await setup();
    const hash = vi.spyOn(hasher, 'hash');
    expect(await auth.basicHeader(basicHeader('no-such-user', 'pw'))).toEqual({ ok: false, reason: 'failed' });
    expect(await auth.basicHeader(basicHeader('ann', 'wrong'))).toEqual({ ok: false, reason: 'failed' });
    const [unknown, known] = verify.mock.calls.map((c) => String(c[1]).split('$').slice(0, 4).join('$'));
    expect(unknown).toBe(`scrypt$${cost.N}$${cost.r}$${cost.p}`);
    expect(unknown).toBe(known);
    expect(hash).not.toHaveBeenCalled();
  });
});

describe('the lock per name and address, and the delay of a name guessed from many addresses (issue 44)', () => {
  it("locks the name for the guessing address only: the owner's remembered credential and fresh logins elsewhere go on", async () => {
    const { auth, verify } = await setup();
    const ann = basicHeader('ann', 'ann-pw');
    expect((await auth.basicHeader(ann, undefined, '10.0.0.2')).ok).toBe(true);
    expect((await auth.basicHeader(ann, undefined, '10.0.0.1')).ok).toBe(true);
    for (let i = 0; i < 3; i++) expect(await auth.basicHeader(basicHeader('ann', `x${i}`), undefined, '10.0.0.1')).toEqual({ ok: false, reason: 'failed' });
    verify.mockClear();
    expect(await auth.basicHeader(ann, undefined, '10.0.0.1')).toEqual({ ok: false, reason: 'denied' });
    expect(auth.cachedBasic(ann, auth.basicKey(ann, '10.0.0.1'))).toBeUndefined();
    expect((await auth.basicHeader(ann, undefined, '10.0.0.2')).ok).toBe(true);
    expect(verify).not.toHaveBeenCalled();
    expect((await auth.password('ann', 'ann-pw', '10.0.0.3')).ok).toBe(true);
    // One address however it is written: an IPv4 peer seen through a dual-stack socket is the same client.
    expect(await auth.password('ann', 'ann-pw', '::ffff:10.0.0.1')).toEqual({ ok: false, reason: 'denied' });
  });

  it('waits 1 s, 2 s, 4 s (the maximum) before each check once the failures from all addresses pass the threshold', async () => {
    const waits: number[] = [];
    const { auth } = await setup({ delay: { afterFailures: 2, maxSeconds: 4 }, sleep: async (ms) => void waits.push(ms) });
    for (let i = 0; i < 2; i++) await auth.password('bob', 'wrong', `10.1.0.${i}`);
    expect(waits).toEqual([]);
    for (let i = 2; i < 6; i++) await auth.password('bob', 'wrong', `10.1.0.${i}`);
    // The third failure waited nothing (2 before it); then 1 s, 2 s, 4 s.
    expect(waits).toEqual([1000, 2000, 4000]);
    expect((await auth.password('bob', 'bob-pw', '10.1.0.99')).ok).toBe(true);
    expect(waits).toEqual([1000, 2000, 4000, 4000]);
  });
});

