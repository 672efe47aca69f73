import { beforeAll, describe, expect, it, vi } from 'vitest';
import { scrypt } from 'node:crypto';
import type { PasswordHasher as Hasher } from '../../src/platform/auth/password-hasher.ts';

// scrypt counted, still doing the real work.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, scrypt: vi.fn(real.scrypt) };
});

// A worker runs several test files (test/README.md): a hasher module that an earlier file imported holds the real
// scrypt, so this file evaluates a fresh one, which imports the counted scrypt.
let PasswordHasher: typeof Hasher;
beforeAll(async () => {
  vi.resetModules();
  ({ PasswordHasher } = await import('../../src/platform/auth/password-hasher.ts'));
});

// A cheap cost: these tests are about which hash is returned, not about its strength.
const cost = { N: 1024, r: 8, p: 1 };

describe('PasswordHasher.prepare (the command line hashes while it loads)', () => {
  it('hands the prepared hash to the first hash() of the same password, and it verifies', async () => {
    const hasher = new PasswordHasher(cost);
    hasher.prepare('s3cret-passphrase');
    const stored = await hasher.hash('s3cret-passphrase');
    expect(await hasher.verify('s3cret-passphrase', stored)).toBe(true);
    expect(await hasher.verify('other', stored)).toBe(false);
  });

  it('hashes again, with a new salt, for a second hash() of the same password', async () => {
    const hasher = new PasswordHasher(cost);
    hasher.prepare('pw-pw-pw-pw');
    const first = await hasher.hash('pw-pw-pw-pw');
    const second = await hasher.hash('pw-pw-pw-pw');
    expect(second).not.toBe(first);
    expect(second.split('$')[4]).not.toBe(first.split('$')[4]);
    expect(await hasher.verify('pw-pw-pw-pw', second)).toBe(true);
  });

  it('does not hand a prepared hash to a different password', async () => {
    const hasher = new PasswordHasher(cost);
    hasher.prepare('prepared-one');
    const stored = await hasher.hash('another-one');
    expect(await hasher.verify('another-one', stored)).toBe(true);
    expect(await hasher.verify('prepared-one', stored)).toBe(false);
  });

  it('starts the work at prepare(), not at hash()', async () => {
    const calls = vi.mocked(scrypt).mock.calls;
    const hasher = new PasswordHasher(cost);
    const before = calls.length;
    hasher.prepare('early-bird');
    expect(calls.length).toBe(before + 1);
    await hasher.hash('early-bird');
    expect(calls.length).toBe(before + 1);
  });
});

describe('PasswordHasher.verify of a stored value that matches no password', () => {
  it('refuses every password, after a whole scrypt check like a wrong password costs', async () => {
    const calls = vi.mocked(scrypt).mock.calls;
    const hasher = new PasswordHasher(cost);
    for (const stored of ['!imported-without-password', '', 'scrypt$0$8$1$AAAA$AAAA', 'scrypt$1024$8$1$AAAA$']) {
      const before = calls.length;
      expect(await hasher.verify('anything', stored)).toBe(false);
      expect(calls.length).toBe(before + 1);
    }
  });
});
