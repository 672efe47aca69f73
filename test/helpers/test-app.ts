import supertest from 'supertest';
import { loadConfig, type Config } from '../../src/config.ts';
import { createServices, type AppServices } from '../../src/services.ts';
import { createApp, createRequestListener, type App } from '../../src/app.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import { createHttpServer } from '../../src/server.ts';
import { createLogger } from '../../src/platform/log/logger.ts';
import { PasswordHasher } from '../../src/platform/auth/password-hasher.ts';
import { CHEAP_HASH_COST } from '../../src/platform/test-knobs.ts';
import { createUser, tokenFor, type TestUser, type UserOptions } from './directory-fixtures.ts';
import { createTestDb } from './test-db.ts';
import { createDb } from '../../src/platform/db/knex.ts';
import { perDescribe } from './per-describe.ts';

export { basic, bearer, type TestUser } from './directory-fixtures.ts';

export const ADMIN = { name: 'admin', password: 'admin-secret' } as const;

/** A cheap scrypt cost for tests only: same code path, milliseconds instead of a fifth of a second. */
export const testHasher = () => new PasswordHasher(CHEAP_HASH_COST);

let seq = 0;
/** A name unique within the test run (tests in a file share one database). */
export const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

export interface TestApp {
  app: App;
  services: AppServices;
  config: Config;
  /** supertest bound to the app: `t.http.get('/rest/…').set('Authorization', t.adminAuth)`. */
  http: ReturnType<typeof supertest>;
  adminAuth: string;
  /** Creates a user through the directory service (see `directory-fixtures.ts`). */
  createUser(name: string, opts?: UserOptions): Promise<TestUser>;
  /** A personal access token of that user, as an Authorization value. */
  tokenFor(name: string): Promise<string>;
  close(): Promise<void>;
}

export type TestEnv = Record<string, string>;

/**
 * The real application on a fresh migrated database of its own (PGlite, or PostgreSQL in the
 * `postgres` project), with the administrator `admin` / `admin-secret` and no demo data.
 * `env` overrides configuration variables (e.g. `{ MAX_AUTH_ATTEMPTS: '2' }`).
 * Test files use `useTestApp()`; this is for a second app inside one test. `opts.dbUrl` rewrites the
 * PostgreSQL URL the app uses (a proxy that cuts connections).
 */
export async function createTestApp(env: TestEnv = {}, opts: { dbUrl?: (url: string) => string } = {}): Promise<TestApp> {
  const made = await createTestDb();
  let db = made.db;
  // PostgreSQL reached another way (a proxy a fault test controls): the same database, another URL.
  if (opts.dbUrl && made.url) {
    await db.close();
    db = createDb({ databaseUrl: opts.dbUrl(made.url), acquireTimeoutMs: 15_000, poolMax: 10 });
  }
  const config = loadConfig({
    DATA_DIR: 'memory://',
    ADMIN_USERNAME: ADMIN.name,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO: '0',
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://localhost:8080',
    // Every test request comes from 127.0.0.1: the per-address limit of failed logins would couple the tests of
    // a file. Tests of that limit set it.
    LOGIN_FAILURES_PER_ADDRESS: '0',
    // Off for the same reason, and so that a suite that fires many requests never meets a 429: the tests of the
    // rate limits switch them on (test/integration/platform/rate-limits.test.ts).
    RATE_LIMITS: 'off',
    // Test-only: the fixtures' short passwords (`pw`, `new-pw`) stay valid; the password policy's own tests
    // (test/integration/directory/password-policy.test.ts) set the real minimum.
    PASSWORD_MIN_LENGTH: '1',
    ...env,
  });
  const services = createServices(config, db, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), { hasher: testHasher() });
  await bootstrap(services);
  // On PostgreSQL the change listener connects in a thread of its own; until it is up every cache is bypassed,
  // so tests that expect a cached answer on the second request would see a fresh one.
  for (const until = Date.now() + 10_000; !db.changes.live && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
  const app = createApp(services);
  // The production server settings (header size limit …), on an ephemeral port per request.
  const http = supertest(createHttpServer(createRequestListener(services, app)));

  return {
    app,
    services,
    config,
    http,
    adminAuth: `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString('base64')}`,
    createUser: (name, opts) => createUser(services, name, opts),
    tokenFor: (name) => tokenFor(services, name),
    async close() {
      // Workers a test started (webhook deliveries) stop before the database closes, as in server.ts.
      await Promise.all([services.jobs.stop(), ...services.features.flatMap((f) => f.workers ?? []).map((w) => w.stop())]);
      await db.close();
    },
  };
}

/**
 * One test app for the enclosing file or `describe`: created in a `beforeAll`, closed in an `afterAll`, both
 * registered here. The handle forwards to that app, so it can be kept in a `const` at the top of the file and
 * used in later hooks and in tests. `env` may be a function, for values known only once earlier `beforeAll`
 * hooks have run (the port of a local server); hooks run in the order they are registered.
 */
export function useTestApp(env: TestEnv | (() => TestEnv) = {}): TestApp {
  const app = perDescribe(
    'useTestApp: the app',
    () => createTestApp(typeof env === 'function' ? env() : env),
    (made) => made.close(),
  );
  return {
    get app() {
      return app().app;
    },
    get services() {
      return app().services;
    },
    get config() {
      return app().config;
    },
    get http() {
      return app().http;
    },
    get adminAuth() {
      return app().adminAuth;
    },
    createUser: (name, opts) => app().createUser(name, opts),
    tokenFor: (name) => app().tokenFor(name),
    close: () => app().close(),
  };
}
