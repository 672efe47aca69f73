import type { Express } from 'express';
import supertest from 'supertest';
import { loadConfig, type Config } from '../../src/config.ts';
import { createServices, type AppServices } from '../../src/services.ts';
import { createApp } from '../../src/app.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import { createHttpServer } from '../../src/server.ts';
import { createLogger } from '../../src/platform/log/logger.ts';
import { PasswordHasher } from '../../src/platform/auth/password-hasher.ts';
import { BUILTIN_GROUPS } from '../../src/directory/groups.repository.ts';
import { createTestDb } from './test-db.ts';

export const ADMIN = { name: 'admin', password: 'admin-secret' } as const;

/** A cheap scrypt cost for tests only: same code path, milliseconds instead of a fifth of a second. */
export const testHasher = () => new PasswordHasher({ N: 1024, r: 8, p: 1 });

export const basic = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
export const bearer = (token: string) => `Bearer ${token}`;

export interface TestUser {
  name: string;
  password: string;
  /** Value for the Authorization header. */
  auth: string;
}

export interface TestApp {
  app: Express;
  services: AppServices;
  config: Config;
  /** supertest bound to the app: `t.http.get('/rest/…').set('Authorization', t.adminAuth)`. */
  http: ReturnType<typeof supertest>;
  adminAuth: string;
  /** Creates a user (in `users`, plus the given groups, created when missing). */
  createUser(name: string, opts?: { groups?: string[]; admin?: boolean; sysadmin?: boolean; password?: string }): Promise<TestUser>;
  /** A personal access token of that user, as an Authorization value. */
  tokenFor(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real application on a fresh migrated database of its own (PGlite, or PostgreSQL in the
 * `postgres` project), with the administrator `admin` / `admin-secret` and no demo data.
 * `env` overrides configuration variables (e.g. `{ MAX_AUTH_ATTEMPTS: '2' }`).
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { db } = await createTestDb();
  const config = loadConfig({
    DATA_DIR: 'memory://',
    ADMIN_USERNAME: ADMIN.name,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO: '0',
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://localhost:8080',
    ...env,
  });
  const services = createServices(config, db, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), { hasher: testHasher() });
  await bootstrap(services);
  const app = createApp(services);
  // The production server settings (header size limit …), on an ephemeral port per request.
  const http = supertest(createHttpServer(app));

  const createUser: TestApp['createUser'] = async (name, opts = {}) => {
    const password = opts.password ?? `${name}-pw`;
    const groups = [...(opts.groups ?? [])];
    if (opts.admin) groups.push(BUILTIN_GROUPS.administrators);
    if (opts.sysadmin) groups.push(BUILTIN_GROUPS.systemAdministrators);
    for (const g of groups) {
      await services.directory.createGroup(g).catch(() => undefined);
    }
    await services.directory.createUser({ name, password, groups });
    return { name, password, auth: basic(name, password) };
  };

  return {
    app,
    services,
    config,
    http,
    adminAuth: basic(ADMIN.name, ADMIN.password),
    createUser,
    async tokenFor(name) {
      const user = await services.directory.getUser(name);
      const { rawToken } = await services.tokens.create(user.id, 'test');
      return bearer(rawToken);
    },
    async close() {
      await services.events.settled();
      await db.close();
    },
  };
}
