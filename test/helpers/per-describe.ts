import { afterAll, beforeAll } from 'vitest';

/**
 * Something for the enclosing file or `describe` (an app, a cluster of processes): made in a `beforeAll`,
 * released in an `afterAll`, both registered here. The answer reads it in the hooks and tests that run after
 * that `beforeAll` (hooks run in the order they are registered), and throws "<what> exists only in hooks and
 * tests after its beforeAll" before; `use…` helpers wrap it in a handle kept in a `const` at the top of the file.
 */
export function perDescribe<T>(
  what: string,
  make: () => Promise<T>,
  release: (made: T) => Promise<void>,
  makeTimeoutMs?: number,
): () => T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await make();
  }, makeTimeoutMs);
  afterAll(async () => {
    if (current !== undefined) await release(current);
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error(`${what} exists only in hooks and tests after its beforeAll`);
    return current;
  };
}
