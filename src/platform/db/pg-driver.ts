import { createRequire } from 'node:module';
import type pg from 'pg';

let driver: typeof pg | undefined;

/**
 * node-postgres, loaded on first use: the embedded database never needs it, and loading it (with the fetch
 * machinery it touches) was about 40 ms of a command line run on PGlite (issue 14).
 */
export function pgDriver(): typeof pg {
  if (!driver) {
    driver = withNodeNavigator(() => createRequire(import.meta.url)('pg') as typeof pg);
    // node-postgres returns int8 (ids of bigserial, count(*)) as strings while PGlite returns numbers.
    // Parse them as numbers in both so the same code and tests work on either (values stay < 2^53).
    driver.types.setTypeParser(20, (v) => Number(v));
  }
  return driver;
}

/**
 * node-postgres asks, as it loads, whether it runs in a Cloudflare Worker: through `navigator.userAgent` where
 * that exists (Node 21 and later), else by building a fetch `Response`, which on Node 20 loads Node's whole
 * fetch implementation (undici): 50 ms of every command line run on PostgreSQL (issue 14), for an answer
 * that is always no here. During the require only, Node 20 gets the `navigator` that Node 21 has, so the
 * first check answers; no other code sees it.
 */
function withNodeNavigator<T>(load: () => T): T {
  if ('navigator' in globalThis) return load();
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: `Node.js/${process.versions.node}` }, configurable: true });
  try {
    return load();
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}
