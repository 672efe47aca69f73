import { PGlite } from '@electric-sql/pglite';

/**
 * How the tests start PGlite: its own start parameters, and shared buffers of 16 MB instead of PostgreSQL's 128 MB.
 * PGlite zeroes its shared buffers at every start, and a test file starts one database: with 128 MB that memset was
 * most of the start's CPU time (test/README.md, "Where the time goes"). A test database holds a few MB, so the
 * smaller buffer pool still holds all of it; nothing a test can observe depends on the pool's size.
 */
export const PGLITE_TEST_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
