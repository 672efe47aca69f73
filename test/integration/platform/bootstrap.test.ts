import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createServices } from '../../../src/services.ts';
import { bootstrap } from '../../../src/bootstrap.ts';
import { createLogger } from '../../../src/platform/log/logger.ts';
import type { Db } from '../../../src/platform/db/knex.ts';
import { testHasher } from '../../helpers/test-app.ts';
import { createTestDb } from '../../helpers/test-db.ts';

// A new directory's first administrator and demo user: their passwords are hashed while the migrations run
// (bootstrap.ts), and each hash is computed once.
describe('bootstrap of a new directory', () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  function servicesOn(database: Db) {
    const config = loadConfig({ DATA_DIR: 'memory://', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'first-admin-pw', DEMO: '1', LOG_LEVEL: 'silent' });
    const services = createServices(config, database, createLogger('silent'), { hasher: testHasher() });
    const prepare = vi.spyOn(services.hasher, 'prepare');
    // The hasher's own scrypt run: prepared or not, each password should be hashed once.
    const compute = vi.spyOn(services.hasher as unknown as { compute(p: string): Promise<string> }, 'compute');
    return { services, prepare, compute };
  }

  it('starts the administrator\'s and the demo user\'s hashes before the migrations, and uses them', async () => {
    db = (await createTestDb()).db;
    const first = servicesOn(db);
    const result = await bootstrap(first.services);
    expect(result).toMatchObject({ adminCreated: true, demoLoaded: true });
    expect(first.prepare.mock.calls.map(([p]) => p)).toEqual(['first-admin-pw', 'alice']);
    expect(first.compute).toHaveBeenCalledTimes(2);
    for (const [name, password] of [['root', 'first-admin-pw'], ['alice', 'alice']] as const) {
      const row = (await db.knex('users').where({ name_key: name }).first()) as { password_hash: string };
      expect(await first.services.hasher.verify(password, row.password_hash), name).toBe(true);
    }

    // A directory with users: nothing is created, so nothing is hashed.
    const again = servicesOn(db);
    expect(await bootstrap(again.services)).toMatchObject({ adminCreated: false, demoLoaded: false });
    expect(again.prepare).not.toHaveBeenCalled();
    expect(again.compute).not.toHaveBeenCalled();
  }, 60_000);
});
