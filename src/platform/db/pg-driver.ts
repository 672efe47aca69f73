import { createRequire } from 'node:module';
import type pg from 'pg';

let driver: typeof pg | undefined;

/**
 * node-postgres, loaded on first use: the embedded database never needs it, and loading it (with the fetch
 * machinery it touches) was about 40 ms of a command line run on PGlite (issue 14).
 */
export function pgDriver(): typeof pg {
  if (!driver) {
    driver = createRequire(import.meta.url)('pg') as typeof pg;
    // node-postgres returns int8 (ids of bigserial, count(*)) as strings while PGlite returns numbers.
    // Parse them as numbers in both so the same code and tests work on either (values stay < 2^53).
    driver.types.setTypeParser(20, (v) => Number(v));
  }
  return driver;
}
