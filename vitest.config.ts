import { defineConfig } from 'vitest/config';

// The integration suite runs on embedded PGlite always, and again on real PostgreSQL when
// TEST_DATABASE_URL is set (`test/pg` holds the tests that only make sense there: locks, races, processes).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'pglite', include: ['test/**/*.test.ts'], exclude: ['test/pg/**'], env: { TEST_DB: 'pglite' } },
      },
      ...(onPostgres
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: ['test/integration/**/*.test.ts', 'test/pg/**/*.test.ts'], env: { TEST_DB: 'pg' } },
            },
          ]
        : []),
    ],
  },
});
