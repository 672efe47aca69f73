import { defineConfig } from 'vitest/config';

// Three projects (test/README.md, "Running the tests", says why and what each costs):
// - `pglite`: unit and integration tests, in-process, on embedded PGlite;
// - `postgres` (only when TEST_DATABASE_URL is set): the integration tests again on real PostgreSQL, and `test/pg`,
//   which only make sense there (locks, races, several server processes);
// - `process`: real server and command-line processes, and the browser, run once the other two are done.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * What every project shares. Not inherited from the root with `extends: true`: that would run the global set-up
 * (the PGlite template, the PostgreSQL template, the web interface's build) once for the root and once more for
 * each project; declared only at the root, it runs once and every project injects what it provides.
 *
 * `isolate: false`: each worker loads the application's modules once rather than once per test file (the fork
 * and its module graph are kept from one file to the next): importing them again for every file was about a
 * third of the suite's time. Each file still has a database and an app of its own (`useTestApp`), and vitest
 * still restores mocks, spies and fake timers after each file; tests must not change process-wide state
 * (process.env, module-level variables) without restoring it.
 */
const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  maxWorkers: 2,
  isolate: false,
} as const;

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default'],
    projects: [
      {
        test: {
          ...shared,
          name: 'pglite',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(onPostgres
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                include: ['test/integration/**/*.test.ts', 'test/pg/**/*.test.ts'],
                env: { TEST_DB: 'pg' },
              },
            },
          ]
        : []),
      {
        test: {
          ...shared,
          name: 'process',
          include: ['test/process/**/*.test.ts', 'test/browser/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          // After the in-process projects: these start servers and browsers, which would compete with them for the CPU.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
